// Test support for plugin tables: a NodeInfo from a node and its pods.

import type { Node, Pod } from '@kubelab/api';
import { NodeInfo } from '../framework/node-info.js';

export function nodeInfoOf(node: Node, ...pods: Pod[]): NodeInfo {
  const n = new NodeInfo(node);
  for (const p of pods) n.addPod(p);
  return n;
}
