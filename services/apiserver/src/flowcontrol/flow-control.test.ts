import { describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import type { FlowResourcePolicyRule, FlowSchema, UserInfo } from '@kubelab/api';
import { resourceAttributes } from '../authorization/attributes.js';
import { BOOTSTRAP_FLOW_SCHEMAS, BOOTSTRAP_PRIORITY_LEVELS } from './bootstrap.js';
import { FlowControl, nominalLimits, type FlowAdmission } from './flow-control.js';

const kcm: UserInfo = { name: 'system:kube-controller-manager', groups: ['system:authenticated'] };
const admin: UserInfo = { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
const attrs = (user: UserInfo, verb: string, group: string, resource: string, namespace: string) => resourceAttributes(user, verb, { group, resource, namespace });
/** A FlowSchema at precedence 10 sending one user's requests matching `rule` to `level`. */
const userSchema = (name: string, level: string, user: string, rule: FlowResourcePolicyRule): FlowSchema => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
  kind: 'FlowSchema',
  metadata: { name, uid: `${name}-uid` },
  spec: { priorityLevelConfiguration: { name: level }, matchingPrecedence: 10, rules: [{ subjects: [{ kind: 'User', user: { name: user } }], resourceRules: [rule] }] },
});

describe('API Priority and Fairness', () => {
  it("shares the server's 600 seats by nominalConcurrencyShares, rounded up (upstream's NominalCL)", () => {
    expect(Object.fromEntries(nominalLimits(BOOTSTRAP_PRIORITY_LEVELS, 600))).toEqual({
      'catch-all': 13,
      system: 74,
      'node-high': 98,
      'leader-election': 25,
      'workload-high': 98,
      'workload-low': 245,
      'global-default': 49,
    });
  });

  it("keeps the controller-manager's leader election going while its pod creates fill workload-high and every lent seat", async () => {
    const registry = new Registry();
    const flow = new FlowControl({ serverConcurrencyLimit: 24, registry, waitLimitMs: 60_000 });
    // workload-high: ceil(24 × 40 / 245) = 4 seats, 2 of them lent; the levels lend 14 in all (system 1, node-high 1,
    // workload-high 2, workload-low 9, global-default 1): 2 of its own and 14 borrowed run, the rest wait.
    const creates = Array.from({ length: 20 }, () => flow.admit(attrs(kcm, 'create', '', 'pods', 'shop')));
    const running = creates.filter((c): c is FlowAdmission => !(c instanceof Promise));
    expect(running.map((c) => [c.ok, c.level.metadata.name])).toEqual(Array(16).fill([true, 'workload-high']));
    const renew = flow.admit(attrs(kcm, 'update', 'coordination.k8s.io', 'leases', 'kube-system'));
    expect(renew).toMatchObject({ ok: true, schema: { metadata: { name: 'system-leader-election' } }, level: { metadata: { name: 'leader-election' } } });
    // A user in global-default still has the seat global-default keeps (1 of 2).
    expect(flow.admit(attrs({ name: 'jane', groups: ['system:authenticated'] }, 'get', '', 'pods', 'shop'))).toMatchObject({ ok: true, level: { metadata: { name: 'global-default' } } });
    const exempt = flow.admit(attrs(admin, 'create', '', 'pods', 'shop'));
    expect(exempt).toMatchObject({ ok: true, level: { metadata: { name: 'exempt' } } });
    const text = await registry.metrics();
    expect(text).toContain('apiserver_flowcontrol_current_inqueue_requests{flow_schema="kube-controller-manager",priority_level="workload-high"} 4');
    expect(text).toContain('apiserver_flowcontrol_current_executing_requests{flow_schema="kube-controller-manager",priority_level="workload-high"} 16');
    expect(text).toContain('apiserver_flowcontrol_dispatched_requests_total{flow_schema="system-leader-election",priority_level="leader-election"} 1');
    expect(text).toContain('apiserver_flowcontrol_nominal_limit_seats{priority_level="leader-election"} 1');
    // The queued creates run as seats, borrowed or not, come back.
    for (const c of running) if (c.ok) c.release();
    const later = await Promise.all(creates.filter((c) => c instanceof Promise));
    expect(later.map((c) => c.ok)).toEqual([true, true, true, true]);
    expect(await registry.metrics()).toContain('apiserver_flowcontrol_current_executing_requests{flow_schema="kube-controller-manager",priority_level="workload-high"} 4');
  });
});

describe('API Priority and Fairness reconfigured', () => {
  it('follows the stored objects: a new level gets seats, an unchanged one keeps its waiting requests, a removed mandatory one stays built in', async () => {
    const flow = new FlowControl({ serverConcurrencyLimit: 24, waitLimitMs: 60_000 });
    const fill = Array.from({ length: 17 }, () => flow.admit(attrs(kcm, 'create', '', 'pods', 'shop')));
    const waiting = fill.find((c) => c instanceof Promise)!;
    const jail = structuredClone(BOOTSTRAP_PRIORITY_LEVELS.find((l) => l.metadata.name === 'catch-all')!);
    jail.metadata = { name: 'jail', uid: 'jail-uid' };
    const kcmToJail = userSchema('kcm-leases', 'jail', kcm.name, { verbs: ['get'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] });
    // Everything but the mandatory objects, and the new ones: workload-high keeps its 2 seats (4, half lent; jail's 5 shares change no rounding).
    const levels = [...BOOTSTRAP_PRIORITY_LEVELS.filter((l) => l.metadata.name !== 'exempt'), jail];
    const schemas = [...BOOTSTRAP_FLOW_SCHEMAS.filter((s) => s.metadata.name !== 'exempt'), kcmToJail];
    flow.configure(schemas, levels);
    expect(flow.admit(attrs(kcm, 'get', '', 'pods', 'shop'))).toMatchObject({ ok: true, schema: { metadata: { name: 'kcm-leases' } }, level: { metadata: { name: 'jail' } } });
    expect(flow.admit(attrs(admin, 'delete', '', 'pods', 'shop'))).toMatchObject({ ok: true, level: { metadata: { name: 'exempt' } } });
    for (const c of fill) if (!(c instanceof Promise) && c.ok) c.release();
    expect(await waiting).toMatchObject({ ok: true, level: { metadata: { name: 'workload-high' } } });
  });
});

describe('a FlowSchema whose priority level does not exist (Dangling)', () => {
  it("is skipped: its requests go to the next schema that matches, as upstream's matcher does", () => {
    const jane = { name: 'jane', groups: ['system:authenticated'] };
    const dangling = userSchema('jane-nowhere', 'missing', 'jane', { verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] });
    const flow = new FlowControl({ schemas: [...BOOTSTRAP_FLOW_SCHEMAS, dangling] });
    expect(flow.admit(attrs(jane, 'get', '', 'pods', 'default'))).toMatchObject({ ok: true, schema: { metadata: { name: 'global-default' } }, level: { metadata: { name: 'global-default' } } });
  });
});

describe('classification remembered per user and request shape', () => {
  it('holds until the configuration changes, and counts in the same series as a fresh classification would', async () => {
    const registry = new Registry();
    const jane: UserInfo = { name: 'jane', groups: ['system:authenticated'] };
    const flow = new FlowControl({ registry });
    const route = (a: FlowAdmission | Promise<FlowAdmission>) => (a instanceof Promise ? 'queued' : `${a.schema.metadata.name}/${a.level.metadata.name}`);
    expect(route(flow.admit(attrs(jane, 'get', '', 'pods', 'default')))).toBe('global-default/global-default');
    expect(route(flow.admit(attrs(jane, 'get', '', 'pods', 'default')))).toBe('global-default/global-default');
    const janeLow = userSchema('jane-low', 'workload-low', 'jane', { verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['default'] });
    flow.configure([...BOOTSTRAP_FLOW_SCHEMAS, janeLow], BOOTSTRAP_PRIORITY_LEVELS);
    // The same user object and shape: routed by the new schema, not the remembered answer.
    expect(route(flow.admit(attrs(jane, 'get', '', 'pods', 'default')))).toBe('jane-low/workload-low');
    // Another namespace is another shape: the new schema does not cover it.
    expect(route(flow.admit(attrs(jane, 'get', '', 'pods', 'shop')))).toBe('global-default/global-default');
    const text = await registry.metrics();
    expect(text).toContain('apiserver_flowcontrol_dispatched_requests_total{flow_schema="global-default",priority_level="global-default"} 3');
    expect(text).toContain('apiserver_flowcontrol_dispatched_requests_total{flow_schema="jane-low",priority_level="workload-low"} 1');
    expect(text).toContain('apiserver_flowcontrol_current_executing_requests{flow_schema="jane-low",priority_level="workload-low"} 1');
    // Nothing waited in a queue: no in-queue series yet (a series shows once something was counted in it).
    expect(text).not.toContain('apiserver_flowcontrol_current_inqueue_requests{');
  });
});
