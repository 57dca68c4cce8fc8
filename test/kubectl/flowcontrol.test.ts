// API Priority and Fairness as kubectl sees it: every answer names the
// FlowSchema and priority level that carried the request (kubectl -v=8 prints
// the response headers), and /metrics counts what each level dispatched.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from './harness.js';

let c: Cluster;
beforeAll(async () => {
  c = await startCluster();
}, 60_000);
afterAll(async () => {
  await c?.stop();
});

/** The UIDs the response headers named, as kubectl -v=8 logs them. */
function pfHeaders(stderr: string): [string | undefined, string | undefined] {
  return [/X-Kubernetes-Pf-Flowschema-Uid: (\S+)/.exec(stderr)?.[1], /X-Kubernetes-Pf-Prioritylevel-Uid: (\S+)/.exec(stderr)?.[1]];
}

describe('API Priority and Fairness through kubectl', () => {
  it("classifies the admin (system:masters) as exempt and an impersonated user into global-default, the UIDs in each answer's headers", async () => {
    const admin = await c.kubectl(['get', 'pods', '-v=8']);
    const jane = await c.kubectl(['--as=jane', 'get', 'pods', '-v=8']);
    expect([admin.code, jane.code]).toEqual([0, 0]);
    const [adminSchema, adminLevel] = pfHeaders(admin.stderr);
    const [janeSchema, janeLevel] = pfHeaders(jane.stderr);
    for (const u of [adminSchema, adminLevel, janeSchema, janeLevel]) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(janeSchema).not.toBe(adminSchema);
    expect(janeLevel).not.toBe(adminLevel);
    const metrics = await c.kubectl(['get', '--raw', '/metrics']);
    const line = (schema: string, level: string) => new RegExp(`^apiserver_flowcontrol_dispatched_requests_total\\{flow_schema="${schema}",priority_level="${level}"[^}]*\\} [1-9]\\d*$`, 'm');
    expect(metrics.stdout).toMatch(line('exempt', 'exempt'));
    expect(metrics.stdout).toMatch(line('global-default', 'global-default'));
    expect(metrics.stdout).toMatch(/^apiserver_flowcontrol_nominal_limit_seats\{priority_level="leader-election"[^}]*\} 25$/m);
  });
});
