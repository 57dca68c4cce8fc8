import type { Container, Node, Pod } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { canAdmitPod, evictionAdmit, generalAdmit, rejectedMessage } from './admit.js';

const node = (extra: Partial<Node['spec']> = {}, labels: Record<string, string> = {}): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1', ...labels } },
  spec: extra,
  status: { allocatable: { cpu: '2', memory: '4Gi', 'ephemeral-storage': '10Gi', pods: '3' } },
});

const pod = (name: string, resources: Container['resources'] = {}, spec: Partial<Pod['spec']> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'default', name },
  spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx', resources }], ...spec },
});

describe('kubelet admission (upstream predicateAdmitHandler)', () => {
  it('admits what fits and rejects what does not, with the upstream reason and message', () => {
    const running = [pod('a', { requests: { cpu: '1500m', memory: '1Gi' } })];
    expect(generalAdmit(pod('b', { requests: { cpu: '500m' } }), node(), running, false)).toEqual({ admit: true });
    expect(generalAdmit(pod('c', { requests: { cpu: '1' } }), node(), running, false)).toEqual({
      admit: false,
      reason: 'OutOfcpu',
      message: "Node didn't have enough resource: cpu, requested: 1000, used: 1500, capacity: 2000",
    });
    expect(generalAdmit(pod('d', { requests: { memory: '3500Mi' } }), node(), running, false)).toEqual({
      admit: false,
      reason: 'OutOfmemory',
      message: "Node didn't have enough resource: memory, requested: 3670016000, used: 1073741824, capacity: 4294967296",
    });
    expect(generalAdmit(pod('e'), node(), [pod('x'), pod('y'), pod('z')], false)).toMatchObject({
      reason: 'OutOfpods',
      message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3",
    });
  });

  // What admitted pods use is remembered for frozen (informer) pods only: each answer is the one their specs give.
  it.each([
    ['frozen', true],
    ['not frozen', false],
  ])('counts the requests and host ports of %s admitted pods the same on every admission', (_, frozen) => {
    const deepFreeze = <T>(o: T): T => {
      if (o && typeof o === 'object' && !Object.isFrozen(o)) {
        Object.freeze(o);
        for (const v of Object.values(o)) deepFreeze(v);
      }
      return o;
    };
    const admitted = pod(
      'a',
      { requests: { cpu: '1500m' } },
      { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '1500m' } }, ports: [{ containerPort: 80, hostPort: 8080 }] }] },
    );
    const running = [frozen ? deepFreeze(admitted) : admitted];
    const tooBig = { admit: false, reason: 'OutOfcpu', message: "Node didn't have enough resource: cpu, requested: 1000, used: 1500, capacity: 2000" };
    const portTaken = pod('p', {}, { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] });
    for (let i = 0; i < 2; i++) {
      expect(generalAdmit(pod('c', { requests: { cpu: '1' } }), node(), running, false)).toEqual(tooBig);
      expect(generalAdmit(portTaken, node(), running, false)).toMatchObject({ admit: false, reason: 'NodePorts' });
    }
    if (!frozen) {
      admitted.spec!.containers[0]!.resources = { requests: { cpu: '500m' } };
      admitted.spec!.containers[0]!.ports = [];
      expect(generalAdmit(pod('c', { requests: { cpu: '1' } }), node(), running, false)).toEqual({ admit: true });
      expect(generalAdmit(portTaken, node(), running, false)).toEqual({ admit: true });
    }
  });

  it('checks node selector, host ports and NoExecute taints (not for static pods)', () => {
    expect(generalAdmit(pod('s', {}, { nodeSelector: { disk: 'ssd' } }), node(), [], false)).toEqual({
      admit: false,
      reason: 'NodeAffinity',
      message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
    });
    const withPort = (n: string) => pod(n, {}, { containers: [{ name: 'app', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] });
    expect(generalAdmit(withPort('p2'), node(), [withPort('p1')], false)).toMatchObject({
      reason: 'NodePorts',
      message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
    });
    const tainted = node({
      taints: [
        { key: 'dedicated', value: 'infra', effect: 'NoExecute' },
        { key: 'x', effect: 'NoSchedule' },
      ],
    });
    expect(generalAdmit(pod('t'), tainted, [], false)).toMatchObject({ reason: 'TaintToleration', message: "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate" });
    expect(generalAdmit(pod('t'), tainted, [], true)).toEqual({ admit: true }); // static pods skip the taint check
    expect(generalAdmit(pod('t', {}, { tolerations: [{ key: 'dedicated', operator: 'Exists' }] }), tainted, [], false)).toEqual({ admit: true }); // NoSchedule is the scheduler's business
  });
});

describe('eviction admission (upstream eviction manager Admit)', () => {
  const bestEffort = pod('be');
  const burstable = pod('bu', { requests: { memory: '64Mi' } });
  it('under memory pressure only BestEffort pods are refused; under disk pressure all but critical ones', () => {
    expect(evictionAdmit(bestEffort, [], false)).toEqual({ admit: true });
    expect(evictionAdmit(burstable, ['MemoryPressure'], false)).toEqual({ admit: true });
    expect(evictionAdmit(bestEffort, ['MemoryPressure'], false)).toEqual({ admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' });
    expect(evictionAdmit(burstable, ['DiskPressure'], false)).toEqual({ admit: false, reason: 'Evicted', message: 'The node had condition: [DiskPressure]. ' });
    expect(evictionAdmit(burstable, ['MemoryPressure', 'DiskPressure'], false)).toMatchObject({ message: 'The node had condition: [MemoryPressure DiskPressure]. ' });
    expect(evictionAdmit(bestEffort, ['DiskPressure'], true)).toEqual({ admit: true });
  });

  it('canAdmitPod asks the eviction manager first', () => {
    expect(canAdmitPod(pod('big', { requests: { cpu: '8' } }), node(), [], ['DiskPressure'], { isStatic: false, isCritical: false })).toMatchObject({ reason: 'Evicted' });
    expect(rejectedMessage('The node had condition: [DiskPressure]. ')).toBe('Pod was rejected: The node had condition: [DiskPressure]. ');
  });
});
