import { describe, expect, it } from 'vitest';
import { evictionOf, evictionText, nodePhase, notReadyAt, notReadyText, secondsUntil, tolerates, type TaintView, type TolerationView } from './countdown.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const unreachable: TaintView = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: T0 };
const notReady: TaintView = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: T0 + 2000 };
const noSchedule: TaintView = { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: T0 };
// What the DefaultTolerationSeconds admission plugin adds to every pod.
const defaults: TolerationView[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

describe('nodePhase', () => {
  it.each([
    ['Ready with a fresh heartbeat', 'True', T0 - 1000, 40, T0, 'ready'],
    ['Ready, no lease seen yet', 'True', undefined, undefined, T0, 'ready'],
    ['Ready, two renewals missed (40 s lease: 20 s)', 'True', T0 - 20_001, 40, T0, 'stale'],
    ['Ready, one renewal missed only', 'True', T0 - 15_000, 40, T0, 'ready'],
    ['a short lease still waits 3 s', 'True', T0 - 2500, 4, T0, 'ready'],
    ['a short lease: late after 3 s', 'True', T0 - 3500, 4, T0, 'stale'],
    ['Unknown (the controller gave up)', 'Unknown', T0 - 60_000, 40, T0, 'notready'],
    ['False (the kubelet said so)', 'False', T0, 40, T0, 'notready'],
  ] as const)('%s', (_name, ready, heartbeat, lease, now, want) => expect(nodePhase(ready, heartbeat, lease, now)).toBe(want));
});

describe('the NotReady countdown', () => {
  it.each([
    ['50 s grace, renewed 10 s ago', T0 - 10_000, 50_000, T0, 40, 'NotReady in ~40s (node-monitor-grace-period 50s)'],
    ['rounds up', T0 - 10_500, 50_000, T0, 40, 'NotReady in ~40s (node-monitor-grace-period 50s)'],
    ['12 s grace, renewed 11.2 s ago', T0 - 11_200, 12_000, T0, 1, 'NotReady in ~1s (node-monitor-grace-period 12s)'],
    ['the grace period passed', T0 - 60_000, 50_000, T0, 0, 'NotReady due now (node-monitor-grace-period 50s passed)'],
  ] as const)('%s', (_name, heartbeat, grace, now, seconds, text) => {
    expect(secondsUntil(notReadyAt(heartbeat, grace), now)).toBe(seconds);
    expect(notReadyText(heartbeat, grace, now)).toBe(text);
  });
});

describe('tolerates', () => {
  it.each([
    ['Exists on the key and effect', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }, unreachable, true],
    ['Exists with no key: every taint', { operator: 'Exists' }, unreachable, true],
    ['another key', { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' }, unreachable, false],
    ['another effect', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }, unreachable, false],
    ['Equal, both values empty', { key: 'node.kubernetes.io/unreachable', operator: 'Equal' }, unreachable, true],
    ['Equal, values differ', { key: 'dedicated', operator: 'Equal', value: 'a' }, { key: 'dedicated', value: 'b', effect: 'NoExecute' }, false],
    ['an unknown operator', { key: 'node.kubernetes.io/unreachable', operator: 'Gt' }, unreachable, false],
  ] as const)('%s', (_name, toleration, taint, want) => expect(tolerates(toleration, taint)).toBe(want));
});

describe('evictionOf and its text', () => {
  it.each<[string, TaintView[], TolerationView[] | undefined, number, string | undefined]>([
    ['no taints', [], defaults, T0, undefined],
    ['NoSchedule only: no eviction', [noSchedule], defaults, T0, undefined],
    ['unreachable, the default 300 s, 13 s in', [noSchedule, unreachable], defaults, T0 + 13_000, 'evicted in 287s (node.kubernetes.io/unreachable:NoExecute, tolerationSeconds=300)'],
    [
      "the page's clock behind the taint's timeAdded: the whole toleration, no more",
      [unreachable],
      defaults,
      T0 - 1_500,
      'evicted in 300s (node.kubernetes.io/unreachable:NoExecute, tolerationSeconds=300)',
    ],
    ['the toleration ran out', [unreachable], defaults, T0 + 301_000, 'evicting (node.kubernetes.io/unreachable:NoExecute, tolerationSeconds=300 passed)'],
    ['no toleration: at once', [unreachable], [], T0, 'evicted now (node.kubernetes.io/unreachable:NoExecute not tolerated)'],
    ['no tolerations field: at once', [unreachable], undefined, T0, 'evicted now (node.kubernetes.io/unreachable:NoExecute not tolerated)'],
    ['tolerated forever (a DaemonSet pod)', [unreachable], [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }], T0, undefined],
    ['tolerationSeconds 0: at once', [unreachable], [{ operator: 'Exists', tolerationSeconds: 0 }], T0, 'evicted now (node.kubernetes.io/unreachable:NoExecute, tolerationSeconds=0)'],
    [
      'two taints: the smaller tolerationSeconds wins',
      [unreachable, notReady],
      [
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
        { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
      ],
      T0 + 2000,
      'evicted in 30s (node.kubernetes.io/not-ready:NoExecute, tolerationSeconds=30)',
    ],
    ['the first matching toleration is the one used', [unreachable], [{ operator: 'Exists' }, ...defaults], T0, undefined],
  ])('%s', (_name, taints, tolerations, now, text) => expect(evictionText(evictionOf(taints, tolerations), now)).toBe(text));

  it('says when', () => {
    expect(evictionOf([unreachable], defaults)).toEqual({ kind: 'at', at: T0 + 300_000, seconds: 300, taint: unreachable });
  });
});
