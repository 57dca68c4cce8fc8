// API Priority and Fairness as kubectl sees it: the apiserver's bootstrap
// FlowSchemas and priority levels as objects (`kubectl get flowschemas`), each
// answer naming the FlowSchema and level that carried it (kubectl -v=8 prints
// the response headers), a FlowSchema of one's own taking effect at once, a
// dangling one marked, and /metrics counting what each level dispatched.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { squash, startCluster, type Cluster } from './harness.js';

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

const uidOf = async (resource: string, name: string) => (await c.kubectl(['get', resource, name, '-o', 'jsonpath={.metadata.uid}'])).stdout;

describe('API Priority and Fairness through kubectl', () => {
  it("lists upstream's bootstrap FlowSchemas and priority levels in kubectl's columns", async () => {
    const fs = await c.kubectl(['get', 'flowschemas']);
    expect(fs.stderr).toBe('');
    const rows = squash(fs.stdout).map((r) => r.replace(/ \d+[smhd]\d*[smh]? /, ' AGE '));
    expect(rows).toEqual([
      'NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL',
      'exempt exempt 1 <none> AGE False',
      'probes exempt 2 <none> AGE False',
      'system-leader-election leader-election 100 ByUser AGE False',
      'endpoint-controller workload-high 150 ByUser AGE False',
      'workload-leader-election leader-election 200 ByUser AGE False',
      'system-node-high node-high 400 ByUser AGE False',
      'system-nodes system 500 ByUser AGE False',
      'kube-controller-manager workload-high 800 ByNamespace AGE False',
      'kube-scheduler workload-high 800 ByNamespace AGE False',
      'kube-system-service-accounts workload-high 900 ByNamespace AGE False',
      'service-accounts workload-low 9000 ByUser AGE False',
      'global-default global-default 9900 ByUser AGE False',
      'catch-all catch-all 10000 ByUser AGE False',
    ]);
    const pl = await c.kubectl(['get', 'prioritylevelconfigurations']);
    expect(squash(pl.stdout).map((r) => r.replace(/ \d+[smhd]\d*[smh]?$/, ' AGE'))).toEqual([
      'NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE',
      'catch-all Limited 5 <none> <none> <none> AGE',
      'exempt Exempt <none> <none> <none> <none> AGE',
      'global-default Limited 20 128 6 50 AGE',
      'leader-election Limited 10 16 4 50 AGE',
      'node-high Limited 40 64 6 50 AGE',
      'system Limited 30 64 6 50 AGE',
      'workload-high Limited 40 128 6 50 AGE',
      'workload-low Limited 100 128 6 50 AGE',
    ]);
    const annotations = (await c.kubectl(['get', 'flowschema', 'exempt', '-o', 'jsonpath={.metadata.annotations}'])).stdout;
    expect(JSON.parse(annotations)).toEqual({ 'apf.kubernetes.io/autoupdate-spec': 'true' });
  });

  it('names the stored FlowSchema and level of each request in its headers: the admin exempt, an impersonated user global-default', async () => {
    const admin = await c.kubectl(['get', 'pods', '-v=8']);
    const jane = await c.kubectl(['--as=jane', 'get', 'pods', '-v=8']);
    expect([admin.code, jane.code]).toEqual([0, 0]);
    expect(pfHeaders(admin.stderr)).toEqual([await uidOf('flowschema', 'exempt'), await uidOf('prioritylevelconfiguration', 'exempt')]);
    expect(pfHeaders(jane.stderr)).toEqual([await uidOf('flowschema', 'global-default'), await uidOf('prioritylevelconfiguration', 'global-default')]);
  });

  it("sends jane's requests to a level of one's own as soon as its FlowSchema exists, and marks a FlowSchema whose level is missing", async () => {
    const manifest = `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: {name: jail}
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 1
    limitResponse: {type: Reject}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: jane-in-jail}
spec:
  priorityLevelConfiguration: {name: jail}
  matchingPrecedence: 50
  distinguisherMethod: {type: ByUser}
  rules:
  - subjects: [{kind: User, user: {name: jane}}]
    resourceRules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"]}]
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: {name: nowhere}
spec:
  priorityLevelConfiguration: {name: missing}
  rules:
  - subjects: [{kind: Group, group: {name: nobody}}]
    nonResourceRules: [{verbs: [get], nonResourceURLs: ["/version"]}]
`;
    expect(await c.kubectl(['apply', '-f', '-'], { stdin: manifest })).toMatchObject({
      code: 0,
      stdout:
        'prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/jail created\nflowschema.flowcontrol.apiserver.k8s.io/jane-in-jail created\nflowschema.flowcontrol.apiserver.k8s.io/nowhere created\n',
    });
    const jail = [await uidOf('flowschema', 'jane-in-jail'), await uidOf('prioritylevelconfiguration', 'jail')];
    let seen: [string | undefined, string | undefined] = [undefined, undefined];
    for (let i = 0; i < 20 && seen[1] !== jail[1]; i++) seen = pfHeaders((await c.kubectl(['--as=jane', 'get', 'pods', '-v=8'])).stderr);
    expect(seen).toEqual(jail);
    const rows = async () => squash((await c.kubectl(['get', 'flowschemas', 'jane-in-jail', 'nowhere'])).stdout).map((r) => r.replace(/ \d+s /, ' AGE '));
    let got: string[] = [];
    for (let i = 0; i < 20; i++) {
      got = await rows();
      if (got.every((r) => !r.endsWith(' ?'))) break;
    }
    expect(got).toEqual(['NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL', 'jane-in-jail jail 50 ByUser AGE False', 'nowhere missing 1000 <none> AGE True']);
    const cond = JSON.parse((await c.kubectl(['get', 'flowschema', 'nowhere', '-o', 'jsonpath={.status.conditions[0]}'])).stdout) as Record<string, string>;
    expect([cond.type, cond.status, cond.reason, cond.message]).toEqual([
      'Dangling',
      'True',
      'NotFound',
      'This FlowSchema references the PriorityLevelConfiguration object named "missing" but there is no such object',
    ]);
  });

  it('refuses a FlowSchema out of range with the validation message', async () => {
    const r = await c.kubectl(['apply', '-f', '-'], {
      stdin: 'apiVersion: flowcontrol.apiserver.k8s.io/v1\nkind: FlowSchema\nmetadata: {name: bad}\nspec:\n  priorityLevelConfiguration: {name: jail}\n  matchingPrecedence: 20000\n',
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec.matchingPrecedence: Invalid value: 20000: must be between 1 and 10000, inclusive');
  });

  it('counts what each level dispatched in /metrics', async () => {
    const metrics = await c.kubectl(['get', '--raw', '/metrics']);
    const line = (schema: string, level: string) => new RegExp(`^apiserver_flowcontrol_dispatched_requests_total\\{flow_schema="${schema}",priority_level="${level}"[^}]*\\} [1-9]\\d*$`, 'm');
    expect(metrics.stdout).toMatch(line('exempt', 'exempt'));
    expect(metrics.stdout).toMatch(line('jane-in-jail', 'jail'));
    expect(metrics.stdout).toMatch(/^apiserver_flowcontrol_nominal_limit_seats\{priority_level="leader-election"[^}]*\} 25$/m);
  });
});
