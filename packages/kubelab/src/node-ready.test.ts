import { describe, expect, it } from 'vitest';
import type { Node, Taint } from '@kubelab/api';
import { nodeTakesPods } from './node-ready.js';

const node = (ready: 'True' | 'False' | 'Unknown' | undefined, taints: Taint[] = []): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1' },
  spec: { taints },
  status: { conditions: ready ? [{ type: 'Ready', status: ready }] : [] },
});

describe('nodeTakesPods', () => {
  it.each([
    ['Ready, no taints', node('True'), true],
    ['Ready, the not-ready taint still on', node('True', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]), false],
    ['Ready, the unreachable taint still on', node('True', [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }]), false],
    ["Ready, the control plane's own taint", node('True', [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]), true],
    ['NotReady', node('False'), false],
    ['no Ready condition yet', node(undefined), false],
  ])('%s', (_name, n, want) => {
    expect(nodeTakesPods(n)).toBe(want);
  });
});
