import { describe, expect, it } from 'vitest';
import { RESOURCES, isConflict, StatusError, type KubeObject, type ResourceInfo } from '@kubelab/api';
import { FieldManager } from './fieldmanager.js';
import { ANCIENT_CHANGES, MAX_UPDATE_MANAGERS } from './managed.js';
import { managerName } from './user-agent.js';
import { patchOptionsErrors } from './options.js';

type Obj = KubeObject & Record<string, unknown>;
const info = RESOURCES.find((r) => r.resource === 'deployments')! as ResourceInfo;
const fm = new FieldManager(info);
const T1 = '2026-01-01T00:00:00Z';
const T2 = '2026-01-01T00:00:05Z';

const deploy = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): Obj =>
  ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', ...meta }, spec }) as Obj;
const frozen = (o: Obj): KubeObject => JSON.parse(JSON.stringify(o)) as KubeObject;
const summary = (o: KubeObject) => (o.metadata.managedFields ?? []).map((e) => `${e.manager}/${e.operation}${e.subresource ? `/${e.subresource}` : ''}: ${JSON.stringify(e.fieldsV1)}`);

function created(spec: Record<string, unknown>, manager: string): Obj {
  const o = deploy(spec);
  fm.update(undefined, o, { manager }, T1);
  return o;
}

function applied(live: KubeObject, config: Obj, manager: string, force = false, now = T2): Obj {
  return fm.apply(live, JSON.parse(JSON.stringify(live)) as Obj, config, { manager }, force, now);
}

function thrown(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    if (StatusError.isInstance(e)) return e;
    throw e;
  }
  throw new Error('did not throw');
}

describe('Update: the writer owns what it changed', () => {
  it('a create owns every field it set, stripped metadata and type aside', () => {
    const o = created({ replicas: 1, selector: { matchLabels: { app: 'web' } } }, 'kubectl-create');
    expect(o.metadata.managedFields).toEqual([
      { manager: 'kubectl-create', operation: 'Update', apiVersion: 'apps/v1', time: T1, fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:selector': {} } } },
    ]);
  });

  it('an update takes the fields it changes from their owner and leaves the rest', () => {
    const live = frozen(created({ replicas: 1, paused: false }, 'a'));
    const next = { ...deploy({ replicas: 2, paused: false }), metadata: { ...live.metadata } } as Obj;
    fm.update(live, next, { manager: 'b' }, T2);
    expect(summary(next)).toEqual(['a/Update: {"f:spec":{"f:paused":{}}}', 'b/Update: {"f:spec":{"f:replicas":{}}}']);
  });

  it('an update that changes nothing keeps the entries as stored (a no-op write stays one)', () => {
    const live = frozen(created({ replicas: 1 }, 'a'));
    const next = JSON.parse(JSON.stringify(live)) as Obj;
    fm.update(live, next, { manager: 'b' }, T2);
    expect(next.metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('a status write is its own entry with the subresource; the main resource ignores status', () => {
    const live = frozen(created({ replicas: 1 }, 'a'));
    const next = { ...JSON.parse(JSON.stringify(live)), status: { replicas: 1 } } as Obj;
    fm.update(live, next, { manager: 'kube-controller-manager', subresource: 'status' }, T2);
    expect(summary(next)).toEqual(['a/Update: {"f:spec":{"f:replicas":{}}}', 'kube-controller-manager/Update/status: {"f:status":{"f:replicas":{}}}']);
    const main = { ...JSON.parse(JSON.stringify(live)), status: { replicas: 1 } } as Obj;
    fm.update(live, main, { manager: 'b' }, T2);
    expect(summary(main)).toEqual(['a/Update: {"f:spec":{"f:replicas":{}}}']);
  });

  it('managedFields: [{}] resets them; [] keeps the stored ones', () => {
    const live = frozen(created({ replicas: 1 }, 'a'));
    const reset = { ...JSON.parse(JSON.stringify(live)), metadata: { ...live.metadata, managedFields: [{}] } } as Obj;
    fm.update(live, reset, { manager: 'b' }, T2);
    expect(reset.metadata.managedFields).toBeUndefined();
    const kept = { ...JSON.parse(JSON.stringify(live)), metadata: { ...live.metadata, managedFields: [] } } as Obj;
    fm.update(live, kept, { manager: 'b' }, T2);
    expect(summary(kept)).toEqual(['a/Update: {"f:spec":{"f:replicas":{}}}']);
  });

  it.each([
    [[{ manager: 'x', operation: 'Patch', fieldsV1: { 'f:spec': {} } }], 'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`'],
    [[{ manager: 'x', operation: 'Update', fieldsType: 'FieldsV2', fieldsV1: { 'f:spec': {} } }], 'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`'],
    [[{ manager: 'x'.repeat(129), operation: 'Update', fieldsV1: { 'f:spec': {} } }], 'metadata.managedFields[0].manager: Too long: must have at most 128 bytes'],
    [[{ manager: 'x', operation: 'Update', fieldsV1: { nope: {} } }], 'metadata.managedFields[0].fieldsV1: Invalid value: "": parsing JSON: unknown path element "nope"'],
  ])('managedFields sent as %j are refused', (entries, message) => {
    const live = frozen(created({ replicas: 1 }, 'a'));
    const next = { ...JSON.parse(JSON.stringify(live)), metadata: { ...live.metadata, managedFields: entries } } as Obj;
    const e = thrown(() => fm.update(live, next, { manager: 'b' }, T2));
    expect([e.status.code, e.status.message]).toEqual([422, `Deployment.apps "web" is invalid: ${message}`]);
  });

  it(`keeps at most ${MAX_UPDATE_MANAGERS} Update entries, the oldest folded into ${ANCIENT_CHANGES}`, () => {
    let live = frozen(created({ replicas: 0 }, 'm0'));
    for (let i = 1; i <= 11; i++) {
      const next = JSON.parse(JSON.stringify(live)) as Obj;
      next.metadata.labels = { ...next.metadata.labels, [`l${i}`]: 'x' };
      fm.update(live, next, { manager: `m${i}` }, `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`);
      live = frozen(next);
    }
    const managers = (live.metadata.managedFields ?? []).map((e) => e.manager);
    expect(managers).toEqual([ANCIENT_CHANGES, 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11']);
    expect(live.metadata.managedFields![0]!.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { '.': {}, 'f:l1': {}, 'f:l2': {} } }, 'f:spec': { 'f:replicas': {} } });
  });
});

describe('a create from nothing: entries remembered per shape', () => {
  const cms = new FieldManager(RESOURCES.find((r) => r.resource === 'configmaps')! as ResourceInfo);
  const cm = (name: string, data: Record<string, string>, labels?: Record<string, string>): Obj =>
    ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) }, data }) as Obj;
  const create = (o: Obj, manager = 'a', now = T1) => {
    cms.update(undefined, o, { manager }, now);
    return o;
  };

  it('objects of one shape, writer and second share one frozen entries array', () => {
    const a = create(cm('one', { k: '1' }, { app: 'x' }));
    const b = create(cm('two', { k: '2' }, { app: 'y' }));
    expect(b.metadata.managedFields).toBe(a.metadata.managedFields);
    expect(Object.isFrozen(a.metadata.managedFields![0]!.fieldsV1)).toBe(true);
    expect(summary(a)).toEqual(['a/Update: {"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}']);
  });

  it.each<[string, Obj, string, string, string[]]>([
    ['another key', cm('three', { other: '1' }), 'a', T1, ['a/Update: {"f:data":{".":{},"f:other":{}}}']],
    ['another writer', cm('four', { k: '1' }, { app: 'x' }), 'b', T1, ['b/Update: {"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}']],
    ['another second', cm('five', { k: '1' }, { app: 'x' }), 'a', T2, ['a/Update: {"f:data":{".":{},"f:k":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}']],
  ])('%s: entries of its own', (_name, o, manager, now, want) => {
    const first = create(cm('first', { k: '1' }, { app: 'x' }));
    create(o, manager, now);
    expect(o.metadata.managedFields).not.toBe(first.metadata.managedFields);
    expect(summary(o)).toEqual(want);
    expect(o.metadata.managedFields![0]!.time).toBe(now);
  });

  it('an object that sets nothing a manager owns has no managedFields', () => {
    const o = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'empty', namespace: 'default', managedFields: [] } } as unknown as Obj;
    create(o);
    expect(o.metadata.managedFields).toBeUndefined();
  });

  it('a later update of a created object starts from the shared entries and leaves them as they were', () => {
    const a = frozen(create(cm('six', { k: '1' })));
    const shared = create(cm('seven', { k: '2' })).metadata.managedFields;
    const next = { ...JSON.parse(JSON.stringify(a)), data: { k: '1', more: '2' } } as Obj;
    cms.update(a, next, { manager: 'b' }, T2);
    expect(summary(next)).toEqual(['a/Update: {"f:data":{".":{},"f:k":{}}}', 'b/Update: {"f:data":{"f:more":{}}}']);
    expect(summary({ metadata: { managedFields: shared } } as KubeObject)).toEqual(['a/Update: {"f:data":{".":{},"f:k":{}}}']);
  });
});

describe('a create from nothing owns what the general Update finds added', () => {
  const pods = () => new FieldManager(RESOURCES.find((r) => r.resource === 'pods')! as ResourceInfo);
  const pod = (spec: Record<string, unknown>, meta: Record<string, unknown> = {}): Obj => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', ...meta }, spec }) as Obj;
  const copy = (o: Obj): Obj => JSON.parse(JSON.stringify(o)) as Obj;
  it.each<[string, Obj]>([
    ['containers, ports (protocol defaulted in the key), env', pod({ containers: [{ name: 'web', image: 'nginx', ports: [{ containerPort: 80 }], env: [{ name: 'A', value: '1' }] }] })],
    [
      'finalizers, ownerReferences, empty maps',
      pod({ containers: [{ name: 'c', resources: {} }] }, { finalizers: ['a', 'b'], ownerReferences: [{ uid: 'u', kind: 'ReplicaSet', name: 'rs', apiVersion: 'apps/v1' }], annotations: {} }),
    ],
    ['a status the main resource ignores', { ...pod({ containers: [{ name: 'c' }] }), status: { phase: 'Pending' } } as Obj],
    ['nulls and unknown fields', pod({ containers: [{ name: 'c', command: null }], nodeSelector: null, 'x-unknown': { a: [1, { b: 2 }] } })],
  ])('%s', (_name, o) => {
    const general = copy(o);
    // Managers sent with nothing in them take the general path and are dropped.
    general.metadata.managedFields = [{}] as never;
    pods().update(undefined, general, { manager: 'm' }, T1);
    const fm2 = pods();
    const first = copy(o);
    fm2.update(undefined, first, { manager: 'm' }, T1);
    const remembered = copy(o);
    fm2.update(undefined, remembered, { manager: 'm' }, T1);
    expect(general.metadata.managedFields).toHaveLength(1);
    expect(first.metadata.managedFields).toEqual(general.metadata.managedFields);
    expect(remembered.metadata.managedFields).toBe(first.metadata.managedFields);
  });
});

describe('Apply', () => {
  const config = (spec: Record<string, unknown>, labels?: Record<string, string>) => deploy(spec, labels ? { labels } : {});

  it('owns what it applies, not what the object had besides', () => {
    const live = frozen(created({ replicas: 1, paused: true }, 'a'));
    const out = applied(live, config({ minReadySeconds: 5 }), 'kubectl');
    expect(out.spec).toEqual({ replicas: 1, paused: true, minReadySeconds: 5 });
    expect(summary(out)).toEqual(['kubectl/Apply: {"f:spec":{"f:minReadySeconds":{}}}', 'a/Update: {"f:spec":{"f:paused":{},"f:replicas":{}}}']);
  });

  it('a field it applied before and no longer applies is removed', () => {
    const live = frozen(applied(frozen(deploy({})), config({ replicas: 2, paused: true }, { app: 'web' }), 'kubectl'));
    const out = applied(live, config({ replicas: 2 }), 'kubectl', false, '2026-01-01T00:01:00Z');
    expect([out.spec, out.metadata.labels]).toEqual([{ replicas: 2 }, undefined]);
    expect(summary(out)).toEqual(['kubectl/Apply: {"f:spec":{"f:replicas":{}}}']);
  });

  it('…unless another manager owns it too', () => {
    const first = frozen(applied(frozen(deploy({})), config({ replicas: 2, paused: true }), 'kubectl'));
    const shared = frozen(applied(first, config({ paused: true }), 'other'));
    const out = applied(shared, config({ replicas: 2 }), 'kubectl');
    expect(out.spec).toEqual({ replicas: 2, paused: true });
    expect(summary(out)).toEqual(['kubectl/Apply: {"f:spec":{"f:replicas":{}}}', 'other/Apply: {"f:spec":{"f:paused":{}}}']);
  });

  it('a map it owned whole and now applies a member of stays (the member with it)', () => {
    const live = frozen(deploy({}, { labels: { app: 'web', tier: 'x' } }));
    live.metadata.managedFields = [
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {}, 'f:tier': {} } } } },
    ];
    const out = applied(frozen(live as Obj), config({}, { app: 'web' }), 'kubectl');
    expect(out.metadata.labels).toEqual({ app: 'web' });
  });

  it('changing a field another manager owns is a conflict in upstream words', () => {
    const live = frozen(created({ replicas: 1 }, 'kubectl-client-side-apply'));
    const e = thrown(() => applied(live, config({ replicas: 3 }), 'kubectl'));
    expect(isConflict(e)).toBe(true);
    expect(e.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' }] },
      code: 409,
    });
  });

  it('applying the value a field already has is no conflict: both own it', () => {
    const live = frozen(created({ replicas: 1 }, 'a'));
    const out = applied(live, config({ replicas: 1 }), 'kubectl');
    expect(summary(out)).toEqual(['kubectl/Apply: {"f:spec":{"f:replicas":{}}}', 'a/Update: {"f:spec":{"f:replicas":{}}}']);
  });

  it('several conflicts are listed per manager', () => {
    const one = frozen(applied(frozen(deploy({})), config({ replicas: 1, paused: true }), 'one'));
    const e = thrown(() => applied(one, config({ replicas: 2, paused: false }), 'two'));
    expect(e.status.message).toBe('Apply failed with 2 conflicts: conflicts with "one":\n- .spec.paused\n- .spec.replicas');
  });

  it('force takes the fields over', () => {
    const live = frozen(created({ replicas: 1, paused: true }, 'kubectl-client-side-apply'));
    const out = applied(live, config({ replicas: 3 }), 'kubectl', true);
    expect(out.spec).toEqual({ replicas: 3, paused: true });
    expect(summary(out)).toEqual(['kubectl/Apply: {"f:spec":{"f:replicas":{}}}', 'kubectl-client-side-apply/Update: {"f:spec":{"f:paused":{}}}']);
  });

  it('an object nobody tracked: its fields belong to before-first-apply', () => {
    const e = thrown(() => applied(frozen(deploy({ replicas: 1 })), config({ replicas: 2 }), 'kubectl'));
    expect(e.status.message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
  });

  it('re-applying the same configuration changes nothing, not even the time', () => {
    const live = frozen(applied(frozen(deploy({})), config({ replicas: 2 }), 'kubectl', false, T1));
    const out = applied(live, config({ replicas: 2 }), 'kubectl', false, T2);
    expect(out.metadata.managedFields).toEqual(live.metadata.managedFields);
  });

  it('a create by apply owns the configuration only', () => {
    const o = config({ replicas: 2 });
    fm.applyCreate(o, { manager: 'kubectl' }, T1);
    expect(summary(o)).toEqual(['kubectl/Apply: {"f:spec":{"f:replicas":{}}}']);
  });

  it.each([
    ['managedFields in the configuration', deploy({}, { managedFields: [] }), 400, 'metadata.managedFields must be nil'],
    [
      'a list item without its key',
      config({ template: { spec: { containers: [{ image: 'x' }] } } }),
      400,
      'failed to create typed patch object (apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
  ])('refuses %s', (_name, cfg, code, message) => {
    const e = thrown(() => applied(frozen(deploy({})), cfg, 'kubectl'));
    expect([e.status.code, e.status.message]).toEqual([code, message]);
  });
});

describe('who a write is attributed to', () => {
  it.each([
    ['kubectl', 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc', 'kubectl'],
    [undefined, 'kubectl/v1.33.0 (linux/amd64) kubernetes/abc', 'kubectl'],
    [undefined, 'kube-scheduler/kubelab grpc-node-js/1.14.7', 'kube-scheduler'],
    [undefined, undefined, ''],
    [undefined, 'x'.repeat(200), 'x'.repeat(128)],
  ])('fieldManager %j, User-Agent %j: %j', (fieldManager, ua, want) => {
    expect(managerName(fieldManager, ua)).toBe(want);
  });
});

describe('patch options', () => {
  it.each([
    [true, undefined, undefined, ['fieldManager: is required for apply patch']],
    [false, 'x', true, ['force: may not be specified for non-apply patch']],
    [true, 'x'.repeat(129), undefined, ['fieldManager: must have at most 128 bytes']],
    [true, 'kubectl', false, []],
  ])('apply %j, fieldManager %j, force %j', (apply, manager, force, want) => {
    expect(patchOptionsErrors(apply, manager, force).map((e) => `${e.field}: ${e.detail}`)).toEqual(want);
  });
});
