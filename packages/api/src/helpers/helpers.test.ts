import { describe, expect, it } from 'vitest';
import type { Node, Pod, PodPhase, Taint, Toleration } from '../index.js';
import {
  controllerRef,
  findUntoleratedTaint,
  getNodeCondition,
  getPodCondition,
  isPodAvailable,
  isPodReady,
  isPodTerminal,
  isTerminalPhase,
  maxContainerRestarts,
  metaNamespaceKey,
  minTolerationSeconds,
  formatMicroTime,
  formatTime,
  parseTime,
  podQOSClass,
  podRequests,
  splitMetaNamespaceKey,
} from '../index.js';
import { isNodeReady, schedulingTaintFilter, tolerationToleratesTaint } from './node.js';
import { podConfigMapNames, podSecretNames, setPodCondition } from './pod.js';
import { TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE } from './wellknown.js';

const taint = (key: string, effect: Taint['effect'], value?: string): Taint => ({ key, effect, ...(value ? { value } : {}) });

describe('tolerationToleratesTaint', () => {
  it.each<[string, Toleration, Taint, boolean]>([
    ['empty key + Exists tolerates everything', { operator: 'Exists' }, taint('a', 'NoSchedule', 'x'), true],
    ['Exists with key ignores value', { key: 'a', operator: 'Exists' }, taint('a', 'NoExecute', 'x'), true],
    ['Equal compares value', { key: 'a', operator: 'Equal', value: 'x' }, taint('a', 'NoSchedule', 'x'), true],
    ['Equal with other value', { key: 'a', operator: 'Equal', value: 'y' }, taint('a', 'NoSchedule', 'x'), false],
    ['empty operator means Equal', { key: 'a', value: 'x' }, taint('a', 'NoSchedule', 'x'), true],
    ['effect must match when given', { key: 'a', operator: 'Exists', effect: 'NoExecute' }, taint('a', 'NoSchedule'), false],
    ['empty effect matches any', { key: 'a', operator: 'Exists' }, taint('a', 'PreferNoSchedule'), true],
    ['other key', { key: 'b', operator: 'Exists' }, taint('a', 'NoSchedule'), false],
    ['unknown operator', { key: 'a', operator: 'Gt' as 'Exists' }, taint('a', 'NoSchedule'), false],
  ])('%s', (_name, tol, t, want) => {
    expect(tolerationToleratesTaint(tol, t)).toBe(want);
  });

  it('findUntoleratedTaint skips PreferNoSchedule under the scheduling filter', () => {
    const taints = [taint('soft', 'PreferNoSchedule'), taint(TAINT_NODE_NOT_READY, 'NoSchedule')];
    expect(findUntoleratedTaint(taints, [], schedulingTaintFilter)).toEqual(taint(TAINT_NODE_NOT_READY, 'NoSchedule'));
    expect(findUntoleratedTaint(taints, [{ key: TAINT_NODE_NOT_READY, operator: 'Exists' }], schedulingTaintFilter)).toBeUndefined();
  });

  it.each<[string, Taint[], Toleration[], number]>([
    ['no taints: forever', [], [], -1],
    ['untolerated: now', [taint(TAINT_NODE_UNREACHABLE, 'NoExecute')], [], 0],
    ['default 300 s toleration', [taint(TAINT_NODE_UNREACHABLE, 'NoExecute')], [{ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }], 300],
    ['tolerated without seconds: forever', [taint(TAINT_NODE_UNREACHABLE, 'NoExecute')], [{ operator: 'Exists' }], -1],
  ])('minTolerationSeconds: %s', (_name, taints, tols, want) => {
    expect(minTolerationSeconds(taints, tols)).toBe(want);
  });
});

const podWith = (mut: (p: Pod) => void): Pod => {
  const p: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [] } };
  mut(p);
  return p;
};

describe('pod helpers', () => {
  it('readiness and availability follow the Ready condition', () => {
    const p = podWith((x) => (x.status = { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' }] }));
    expect(isPodReady(p)).toBe(true);
    expect(getPodCondition(p.status, 'Ready').index).toBe(0);
    expect(getPodCondition(p.status, 'PodScheduled')).toEqual({ index: -1 });
    const t0 = Date.parse('2024-01-01T00:00:00Z');
    expect(isPodAvailable(p, 10, t0 + 5000)).toBe(false);
    expect(isPodAvailable(p, 10, t0 + 10000)).toBe(true);
  });

  it.each<[string, Pod['spec'], Pod['status'], { regular: number; sidecar: number }]>([
    ['no statuses', { containers: [] }, {}, { regular: 0, sidecar: 0 }],
    [
      'the highest container count, not the sum',
      { containers: [] },
      {
        containerStatuses: [
          { name: 'a', restartCount: 2, ready: true, image: 'x', imageID: '' },
          { name: 'b', restartCount: 3, ready: true, image: 'x', imageID: '' },
        ],
      },
      { regular: 3, sidecar: 0 },
    ],
    [
      'sidecars counted apart; plain init containers ignored',
      { containers: [], initContainers: [{ name: 'side', restartPolicy: 'Always' }, { name: 'init' }] },
      {
        initContainerStatuses: [
          { name: 'side', restartCount: 4, ready: true, image: 'x', imageID: '' },
          { name: 'init', restartCount: 9, ready: false, image: 'x', imageID: '' },
        ],
      },
      { regular: 0, sidecar: 4 },
    ],
  ])('maxContainerRestarts: %s', (_name, spec, status, want) => {
    expect(maxContainerRestarts(podWith((x) => ((x.spec = spec), (x.status = status))))).toEqual(want);
  });

  it('setPodCondition keeps lastTransitionTime when status is unchanged', () => {
    const status = { conditions: [{ type: 'Ready', status: 'True' as const, lastTransitionTime: 't1' }] };
    expect(setPodCondition(status, { type: 'Ready', status: 'True', lastTransitionTime: 't2' })).toBe(false);
    expect(status.conditions[0]?.lastTransitionTime).toBe('t1');
    expect(setPodCondition(status, { type: 'Ready', status: 'False', lastTransitionTime: 't3' })).toBe(true);
    expect(status.conditions[0]).toEqual({ type: 'Ready', status: 'False', lastTransitionTime: 't3' });
  });

  it('podRequests sums containers and takes the init-container max', () => {
    const p = podWith((x) => {
      x.spec!.containers = [
        { name: 'a', resources: { requests: { cpu: '100m', memory: '64Mi' } } },
        { name: 'b', resources: { requests: { cpu: '200m' } } },
      ];
      x.spec!.initContainers = [{ name: 'i', resources: { requests: { cpu: '500m', memory: '32Mi' } } }];
      x.spec!.overhead = { cpu: '10m' };
    });
    const r = podRequests(p);
    expect(r.get('cpu')?.toString()).toBe('510m');
    expect(r.get('memory')?.toString()).toBe('64Mi');
  });

  it('podRequests counts sidecars in the sum and before later init containers', () => {
    const p = podWith((x) => {
      x.spec!.containers = [{ name: 'a', resources: { requests: { cpu: '100m' } } }];
      x.spec!.initContainers = [
        { name: 'side', restartPolicy: 'Always', resources: { requests: { cpu: '50m' } } },
        { name: 'i', resources: { requests: { cpu: '100m' } } },
      ];
    });
    expect(podRequests(p).get('cpu')?.toString()).toBe('150m');
  });

  it('nonMissingContainerRequests fills the scheduler defaults', () => {
    const p = podWith((x) => (x.spec!.containers = [{ name: 'a' }]));
    const r = podRequests(p, { nonMissingContainerRequests: true });
    expect(r.get('cpu')?.milliValue()).toBe(100);
    expect(r.get('memory')?.toString()).toBe('200Mi');
  });

  it.each<[string, Pod['spec'], string]>([
    ['no resources', { containers: [{ name: 'a' }] }, 'BestEffort'],
    ['requests only', { containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }] }, 'Burstable'],
    ['limits equal requests for cpu and memory', { containers: [{ name: 'a', resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } } }] }, 'Guaranteed'],
    ['limits missing memory', { containers: [{ name: 'a', resources: { requests: { cpu: '1' }, limits: { cpu: '1' } } }] }, 'Burstable'],
  ])('podQOSClass: %s', (_name, spec, want) => {
    expect(podQOSClass(podWith((x) => (x.spec = spec)))).toBe(want);
  });

  it.each<[string | undefined, boolean]>([
    ['Succeeded', true],
    ['Failed', true],
    ['Running', false],
    ['Pending', false],
    ['Unknown', false],
    [undefined, false],
  ])('phase %s is terminal: %s (the phase and the pod alike)', (phase, want) => {
    expect(isTerminalPhase(phase)).toBe(want);
    expect(isPodTerminal(podWith((x) => (x.status = phase ? { phase: phase as PodPhase } : {})))).toBe(want);
  });
});

describe('the Secrets and ConfigMaps a pod refers to (VisitPodSecretNames / VisitPodConfigmapNames)', () => {
  const spec: Pod['spec'] = {
    imagePullSecrets: [{ name: 'pull' }, { name: '' }],
    initContainers: [{ name: 'init', envFrom: [{ configMapRef: { name: 'init-cm' } }, { secretRef: { name: 'init-secret' } }] }],
    containers: [
      {
        name: 'app',
        env: [
          { name: 'A', valueFrom: { configMapKeyRef: { name: 'env-cm', key: 'a' } } },
          { name: 'B', valueFrom: { secretKeyRef: { name: 'env-secret', key: 'b' } } },
          { name: 'C', value: 'plain' },
        ],
      },
    ],
    ephemeralContainers: [{ name: 'debug', envFrom: [{ configMapRef: { name: 'debug-cm' } }] }],
    volumes: [
      { name: 'cm', configMap: { name: 'vol-cm' } },
      { name: 'secret', secret: { secretName: 'vol-secret' } },
      { name: 'api', projected: { sources: [{ configMap: { name: 'kube-root-ca.crt' } }, { secret: { name: 'proj-secret' } }, { serviceAccountToken: { path: 'token' } }] } },
      { name: 'scratch', emptyDir: {} },
    ],
  };
  const pod: Pod = { metadata: { name: 'p', namespace: 'ns' }, spec };

  it('finds every Secret: pull secrets, env, envFrom, volumes and projected sources, of every kind of container', () => {
    expect([...podSecretNames(pod)].sort()).toEqual(['env-secret', 'init-secret', 'proj-secret', 'pull', 'vol-secret']);
  });
  it('finds every ConfigMap, the projected kube-root-ca.crt included', () => {
    expect([...podConfigMapNames(pod)].sort()).toEqual(['debug-cm', 'env-cm', 'init-cm', 'kube-root-ca.crt', 'vol-cm']);
  });
  it('a pod that refers to none has none', () => {
    const bare: Pod = { metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } };
    expect(podSecretNames(bare).size).toBe(0);
    expect(podConfigMapNames(bare).size).toBe(0);
  });
});

describe('meta and node helpers', () => {
  it('controllerRef and keys', () => {
    const p = podWith((x) => {
      x.metadata.ownerReferences = [
        { apiVersion: 'v1', kind: 'X', name: 'x', uid: '1' },
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: '2', controller: true },
      ];
    });
    expect(controllerRef(p)?.name).toBe('rs');
    expect(metaNamespaceKey(p)).toBe('ns/p');
    expect(splitMetaNamespaceKey('ns/p')).toEqual({ namespace: 'ns', name: 'p' });
    expect(splitMetaNamespaceKey('node-1')).toEqual({ namespace: '', name: 'node-1' });
    expect(() => splitMetaNamespaceKey('a/b/c')).toThrow('unexpected key format: "a/b/c"');
  });

  it('node readiness', () => {
    const n: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } };
    expect(isNodeReady(n)).toBe(false);
    expect(getNodeCondition(n.status, 'Ready').condition?.status).toBe('Unknown');
  });
});

describe('metav1.Time', () => {
  it('formats with second precision, MicroTime with six digits, and parses back', () => {
    const ms = Date.parse('2024-05-01T10:20:30.456Z');
    expect(formatTime(ms)).toBe('2024-05-01T10:20:30Z');
    expect(formatMicroTime(ms)).toBe('2024-05-01T10:20:30.456000Z');
    expect(parseTime('2024-05-01T10:20:30Z')).toBe(ms - 456);
    expect(parseTime(undefined)).toBeNaN();
    expect(parseTime('yesterday')).toBeNaN();
  });
});
