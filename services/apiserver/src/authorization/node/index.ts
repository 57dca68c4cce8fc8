// `--authorization-mode=Node`: the graph kept from the watch cache's pods and the authorizer over it.

import type { PersistentVolume, Pod } from '@kubelab/api';
import type { AuthorizerFactory } from '../modes.js';
import { NodeGraph } from './graph.js';
import { NodeAuthorizer, type NodeAuthorizerOptions } from './node-authorizer.js';

export { NodeGraph, podReferences, type VertexType } from './graph.js';
export { NodeAuthorizer, nodeIdentity, type NodeAuthorizerOptions } from './node-authorizer.js';

const PODS = '/registry/pods';
const PERSISTENT_VOLUMES = '/registry/persistentvolumes';

/** The Node mode's factory; `staticRulesAllow` matches upstream's system:node rules (from the RBAC side). */
export function nodeAuthorizerFactory(opts: Omit<NodeAuthorizerOptions, 'graph'> = {}): AuthorizerFactory {
  return (deps) => {
    const graph = new NodeGraph();
    // Subscribe, then seed from what the cache holds, in one turn: no change falls between.
    deps.cache.observe(PODS, (cur, prev) => graph.onPod(cur?.obj as Pod | undefined, prev?.obj as Pod | undefined));
    for (const e of deps.cache.list(PODS)) graph.onPod(e.obj as Pod, undefined);
    deps.cache.observe(PERSISTENT_VOLUMES, (cur, prev) => graph.onPersistentVolume(cur?.obj as PersistentVolume | undefined, prev?.obj as PersistentVolume | undefined));
    for (const e of deps.cache.list(PERSISTENT_VOLUMES)) graph.onPersistentVolume(e.obj as PersistentVolume, undefined);
    return new NodeAuthorizer({ ...opts, graph });
  };
}
