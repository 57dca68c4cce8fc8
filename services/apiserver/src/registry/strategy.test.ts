// What the pod and daemonset strategies store: the pod's QoS class at create,
// the DaemonSet's deprecated.daemonset.template.generation annotation, as pure
// functions (test/strategy.test.ts: through the store, where defaulting runs first).

import { lookupResource, validateObject, type ResourceInfo } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { prepareForCreate, prepareForUpdate } from './strategy.js';

type Obj = Parameters<typeof prepareForCreate>[1];
const info = (group: string, resource: string): ResourceInfo => lookupResource(group, 'v1', resource)!;
const PODS = info('', 'pods');
const DS = info('apps', 'daemonsets');
const TG = 'deprecated.daemonset.template.generation';

type Resources = { requests?: Record<string, string>; limits?: Record<string, string> };
const podWith = (...resources: Resources[]): Obj =>
  ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: resources.map((r, i) => ({ name: `c${i}`, image: 'x', resources: r })) } }) as unknown as Obj;

const daemonSet = (image = 'agent:1', annotations?: Record<string, string>): Obj =>
  ({
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default', ...(annotations ? { annotations } : {}) },
    spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'a', image }] } } },
  }) as unknown as Obj;

describe('pod QoS class at create (GetPodQOS)', () => {
  const cpuMem = (cpu: string, memory: string) => ({ cpu, memory });
  it.each<[string, string, Obj]>([
    ['no requests or limits', 'BestEffort', podWith({})],
    ['zero quantities count as none', 'BestEffort', podWith({ requests: { cpu: '0' } })],
    ['only other resources', 'BestEffort', podWith({ limits: { 'ephemeral-storage': '1Gi' } })],
    ['a request without a limit', 'Burstable', podWith({ requests: { cpu: '100m' } })],
    ['cpu and memory limits equal to requests', 'Guaranteed', podWith({ requests: cpuMem('500m', '128Mi'), limits: cpuMem('500m', '128Mi') })],
    ['requests below limits', 'Burstable', podWith({ requests: cpuMem('250m', '128Mi'), limits: cpuMem('500m', '128Mi') })],
    ['a limit on cpu only', 'Burstable', podWith({ requests: { cpu: '1' }, limits: { cpu: '1' } })],
    ['one container of two without limits', 'Burstable', podWith({ requests: cpuMem('1', '1Gi'), limits: cpuMem('1', '1Gi') }, {})],
  ])('%s → %s', (_name, want, pod) => {
    prepareForCreate(PODS, pod);
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: want });
  });
  it('drops any other status the client sent but keeps a qosClass it sent (GetPodQOS reads status first)', () => {
    const pod = { ...podWith({}), status: { phase: 'Running', podIP: '10.0.0.1', qosClass: 'Burstable' } } as Obj;
    prepareForCreate(PODS, pod);
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' });
  });
  it('a status write without qosClass keeps the stored one; a main-resource update keeps the stored status', () => {
    const stored = { ...podWith({}), metadata: { name: 'p', uid: 'u', creationTimestamp: 't' }, status: { phase: 'Pending', qosClass: 'BestEffort' } } as Obj;
    const st = prepareForUpdate(PODS, { ...stored, status: { phase: 'Failed', reason: 'OutOfcpu' } } as Obj, stored, 'status');
    expect(st.status).toEqual({ phase: 'Failed', reason: 'OutOfcpu', qosClass: 'BestEffort' });
    const main = prepareForUpdate(PODS, { ...stored, status: { phase: 'Running' } } as Obj, stored, undefined);
    expect(main.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });
  it('keeps a UID the client sent, for validation to refuse a different one, and fills in the stored one when none came (upstream BeforeUpdate)', () => {
    const stored = { ...podWith({}), metadata: { name: 'p', uid: 'u', creationTimestamp: 't', resourceVersion: '3' }, status: { phase: 'Pending' } } as Obj;
    const other = prepareForUpdate(PODS, { ...stored, metadata: { ...stored.metadata, uid: 'recreated' }, status: { phase: 'Running' } } as Obj, stored, 'status');
    expect(other.metadata.uid).toBe('recreated');
    expect(validateObject(other, stored, 'status').map((e) => `${e.field}: ${e.detail ?? ''}`)).toContain('metadata.uid: field is immutable');
    const { uid: _none, ...noUid } = stored.metadata;
    expect(prepareForUpdate(PODS, { ...stored, metadata: noUid } as Obj, stored, undefined).metadata.uid).toBe('u');
  });
});

describe('DaemonSet template generation annotation', () => {
  const created = (ds: Obj) => {
    prepareForCreate(DS, ds);
    return { ...ds, metadata: { ...ds.metadata, uid: 'u', creationTimestamp: 't', generation: 1 } } as Obj;
  };
  it('is "1" at create, kept higher when the client set it so, never below 1', () => {
    expect(created(daemonSet()).metadata.annotations).toEqual({ [TG]: '1' });
    expect(created(daemonSet('agent:1', { [TG]: '4', team: 'x' })).metadata.annotations).toEqual({ [TG]: '4', team: 'x' });
    expect(created(daemonSet('agent:1', { [TG]: '0' })).metadata.annotations).toEqual({ [TG]: '1' });
    expect(created(daemonSet('agent:1', { [TG]: '+007' })).metadata.annotations).toEqual({ [TG]: '7' });
  });
  it('refuses a value that is not an integer (400, as the apps/v1 conversion fails)', () => {
    expect(() => prepareForCreate(DS, daemonSet('agent:1', { [TG]: 'two' }))).toThrow(/strconv.ParseInt: parsing "two": invalid syntax/);
  });
  it('goes up by one per template change only, and ignores what a client writes to it', () => {
    const v1 = created(daemonSet());
    const next = (o: object) => structuredClone(o) as Obj; // prepareForUpdate writes into the object it is given
    const relabelled = prepareForUpdate(DS, next({ ...daemonSet(), metadata: { ...v1.metadata, labels: { a: 'b' }, annotations: { [TG]: '9' } } }), v1, undefined);
    expect(relabelled.metadata.annotations).toEqual({ [TG]: '1' });
    expect(relabelled.metadata.generation).toBe(1);
    const strategy = prepareForUpdate(DS, next({ ...v1, spec: { ...v1.spec, minReadySeconds: 5 } }), v1, undefined);
    expect([strategy.metadata.generation, strategy.metadata.annotations]).toEqual([2, { [TG]: '1' }]);
    const v2 = prepareForUpdate(DS, next({ ...daemonSet('agent:2'), metadata: { ...v1.metadata, annotations: {} } }), v1, undefined);
    expect([v2.metadata.generation, v2.metadata.annotations]).toEqual([2, { [TG]: '2' }]);
  });
  it('a status write cannot change it, even with stale annotations', () => {
    const v2 = { ...created(daemonSet()), metadata: { name: 'agent', namespace: 'default', uid: 'u', creationTimestamp: 't', generation: 2, annotations: { [TG]: '2' } } } as Obj;
    const st = prepareForUpdate(DS, { ...v2, metadata: { ...v2.metadata, annotations: { [TG]: '1' } }, status: { numberReady: 1 } } as Obj, v2, 'status');
    expect(st.metadata.annotations).toEqual({ [TG]: '2' });
    expect(st.status).toEqual({ numberReady: 1 });
  });
});
