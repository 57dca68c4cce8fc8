import type { Taint, Toleration } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { evictionDecision } from './decisions.js';

const unreachable: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const notReady: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };
const tol = (key: string, seconds?: number): Toleration => ({ key, operator: 'Exists', effect: 'NoExecute', ...(seconds !== undefined ? { tolerationSeconds: seconds } : {}) });

describe('taint-based eviction decision', () => {
  it.each<[string, Taint[], Toleration[], ReturnType<typeof evictionDecision>]>([
    ['no NoExecute taint: nothing scheduled', [{ key: 'x', effect: 'NoSchedule' }], [], { kind: 'cancel' }],
    ['untolerated: at once', [unreachable], [], { kind: 'now' }],
    ['tolerated 300 s (the admission default)', [unreachable], [tol('node.kubernetes.io/unreachable', 300)], { kind: 'after', ms: 300_000 }],
    ['tolerated forever (DaemonSet pods)', [unreachable], [tol('node.kubernetes.io/unreachable')], { kind: 'cancel' }],
    ['two taints: the shortest toleration wins', [unreachable, notReady], [tol('node.kubernetes.io/unreachable', 300), tol('node.kubernetes.io/not-ready', 30)], { kind: 'after', ms: 30_000 }],
    ['one of two taints untolerated: at once', [unreachable, notReady], [tol('node.kubernetes.io/unreachable', 300)], { kind: 'now' }],
    ['negative seconds count as zero', [unreachable], [tol('node.kubernetes.io/unreachable', -5)], { kind: 'after', ms: 0 }],
  ])('%s', (_n, taints, tolerations, want) => expect(evictionDecision(taints, tolerations)).toEqual(want));
});
