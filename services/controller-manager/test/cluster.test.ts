// The other controllers against a real apiserver: cascading deletion
// (background, foreground, orphan), namespace deletion, the default
// ServiceAccount, EndpointSlices and Endpoints, DaemonSets, node CIDRs,
// and leader failover between two controller-managers.

import { generateKeyPairSync } from 'node:crypto';
import { parseSigningKey } from '@kubelab/serviceaccount';
import type { CustomResourceDefinition, DaemonSet, KubeObject, Lease, Namespace, Pod, Service } from '@kubelab/api';
import { requireTool, secureGet, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployment, setPodReady, startEnv, type Env } from '../src/testing/harness.js';

const hasNats = requireTool('nats-server');

describe.skipIf(!hasNats)('controller-manager with an apiserver', () => {
  let env: Env;

  beforeAll(async () => {
    // As kubeadm runs them: Node,RBAC, ServiceAccount tokens, and each controller writing as its own
    // ServiceAccount — so what the controllers do is checked against their bootstrap roles too.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    env = await startEnv({ authorizationModes: ['Node', 'RBAC'], serviceAccount: { signingKey: parseSigningKey(privateKey.export({ type: 'pkcs1', format: 'pem' }) as string) } });
    await env.startCm({
      config: {
        controllers: ['*'],
        useServiceAccountCredentials: true,
        nodeMonitorGracePeriodMs: 60_000,
        podGcPeriodMs: 100,
        podGcQuarantineMs: 200,
      },
    });
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  const appPods = async (ns: string, app: string) => (await env.cs.core.pods(ns).list()).items.filter((p) => p.metadata.labels?.app === app);

  it('deletes a Deployment with its ReplicaSets and pods (background propagation)', async () => {
    await env.cs.apps.deployments('default').create(deployment('gc-bg', { replicas: 2 }));
    await waitFor('2 pods', async () => ((await appPods('default', 'gc-bg')).length === 2 ? true : undefined));
    await env.cs.apps.deployments('default').delete('gc-bg', { propagationPolicy: 'Background' });
    await waitFor('rs gone', async () => ((await env.cs.apps.replicaSets('default').list()).items.some((r) => r.metadata.labels?.app === 'gc-bg') ? undefined : true));
    await waitFor('pods gone', async () => ((await appPods('default', 'gc-bg')).length === 0 ? true : undefined));
  });

  it('foreground deletion keeps the owner (foregroundDeletion finalizer) until dependents are gone', async () => {
    await env.cs.apps.deployments('default').create(deployment('gc-fg', { replicas: 1 }));
    await waitFor('1 pod', async () => ((await appPods('default', 'gc-fg')).length === 1 ? true : undefined));
    const res = await env.cs.apps.deployments('default').delete('gc-fg', { propagationPolicy: 'Foreground' });
    expect(res.deleted).toBe(false);
    expect(res.object.metadata.finalizers).toContain('foregroundDeletion');
    expect(res.object.metadata.deletionTimestamp).toBeDefined();
    await waitFor('deployment gone', async () => {
      const list = await env.cs.apps.deployments('default').list();
      return list.items.some((d) => d.metadata.name === 'gc-fg') ? undefined : true;
    });
    expect((await env.cs.apps.replicaSets('default').list()).items.filter((r) => r.metadata.labels?.app === 'gc-fg')).toEqual([]);
    expect(await appPods('default', 'gc-fg')).toEqual([]);
  });

  it('orphan deletion leaves the ReplicaSet without its owner reference', async () => {
    await env.cs.apps.deployments('default').create(deployment('gc-or', { replicas: 1 }));
    await waitFor('1 pod', async () => ((await appPods('default', 'gc-or')).length === 1 ? true : undefined));
    await env.cs.apps.deployments('default').delete('gc-or', { propagationPolicy: 'Orphan' });
    await waitFor('deployment gone', async () => ((await env.cs.apps.deployments('default').list()).items.some((d) => d.metadata.name === 'gc-or') ? undefined : true));
    const rs = (await env.cs.apps.replicaSets('default').list()).items.find((r) => r.metadata.labels?.app === 'gc-or');
    expect(rs).toBeDefined();
    expect(rs!.metadata.ownerReferences).toBeUndefined();
    expect(await appPods('default', 'gc-or')).toHaveLength(1);
  });

  it('gives a new namespace its default ServiceAccount, and deleting the namespace empties and removes it', async () => {
    await env.cs.core.namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } as Namespace);
    const sa = await waitFor('default SA', async () => env.cs.core.serviceAccounts('team-a').get('default'));
    expect(sa.metadata.name).toBe('default');
    await env.cs.apps.deployments('team-a').create({ ...deployment('web', { replicas: 2 }), metadata: { name: 'web', namespace: 'team-a' } });
    await env.cs.core.configMaps('team-a').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'team-a' }, data: { a: '1' } });
    await waitFor('2 pods', async () => ((await env.cs.core.pods('team-a').list()).items.length === 2 ? true : undefined));
    await env.cs.core.namespaces().delete('team-a');
    const terminating = await env.cs.core
      .namespaces()
      .get('team-a')
      .catch(() => undefined);
    if (terminating) expect(terminating.status?.phase).toBe('Terminating');
    await waitFor('namespace gone', async () => ((await env.cs.core.namespaces().list()).items.some((n) => n.metadata.name === 'team-a') ? undefined : true), { timeoutMs: 20_000 });
  });

  it('custom resources: deleting their namespace deletes them, and what a custom resource owns goes with it', async () => {
    const crds = env.cs.resource<CustomResourceDefinition>({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' });
    await crds.create({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'crontabs.stable.example.com' },
      spec: {
        group: 'stable.example.com',
        scope: 'Namespaced',
        names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    await waitFor('the CRD established', async () => ((await crds.get('crontabs.stable.example.com')).status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True'));
    const tabs = (ns: string) => env.cs.resource({ group: 'stable.example.com', version: 'v1', resource: 'crontabs' }, ns);
    const tab = (name: string, ns: string): KubeObject => ({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, namespace: ns } });

    // The garbage collector: a ConfigMap owned by a CronTab goes when the CronTab goes.
    const owner = await tabs('default').create(tab('nightly', 'default'));
    const ownerRef = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'nightly', uid: owner.metadata.uid ?? '', controller: true };
    await env.cs.core.configMaps('default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nightly-schedule', namespace: 'default', ownerReferences: [ownerRef] } });
    await tabs('default').delete('nightly');
    await waitFor('the owned ConfigMap collected', async () => ((await env.cs.core.configMaps('default').list()).items.some((c) => c.metadata.name === 'nightly-schedule') ? undefined : true), {
      timeoutMs: 20_000,
    });

    // The namespace controller: a CronTab in a deleted namespace is deleted, then the namespace.
    await env.cs.core.namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-cr' } } as Namespace);
    await tabs('team-cr').create(tab('weekly', 'team-cr'));
    await env.cs.core.namespaces().delete('team-cr');
    await waitFor('namespace gone', async () => ((await env.cs.core.namespaces().list()).items.some((n) => n.metadata.name === 'team-cr') ? undefined : true), { timeoutMs: 20_000 });
    expect((await tabs('team-cr').list()).items).toEqual([]);
  });

  it('keeps EndpointSlices and Endpoints for a Service in step with pod readiness', async () => {
    const svc: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default', labels: { team: 'a' } },
      spec: { selector: { app: 'eps' }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }] },
    };
    // a real node, or pod GC would take the pods for orphans
    await env.cs.core.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-x' }, spec: {} });
    const created = await env.cs.core.services('default').create(svc);
    const mk = (name: string): Pod => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default', labels: { app: 'eps' } },
      spec: { nodeName: 'node-x', containers: [{ name: 'c', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] },
    });
    const a = await env.cs.core.pods('default').create(mk('eps-a'));
    const b = await env.cs.core.pods('default').create(mk('eps-b'));
    await setPodReady(env.cs, a, true, 'node-x', '10.244.1.10');
    await setPodReady(env.cs, b, false, 'node-x', '10.244.1.11');
    const slice = await waitFor('slice with 2 endpoints', async () => {
      const s = (await env.cs.discovery.endpointSlices('default').list()).items.filter((x) => x.metadata.labels?.['kubernetes.io/service-name'] === 'web');
      return s.length === 1 && s[0]!.endpoints.length === 2 ? s[0] : undefined;
    });
    expect(slice.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
    expect(slice.metadata.labels).toEqual({
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      'kubernetes.io/service-name': 'web',
      team: 'a',
    });
    expect(slice.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(slice.addressType).toBe('IPv4');
    expect(slice.ports).toEqual([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    expect(slice.endpoints.map((e) => [e.addresses[0], e.conditions, e.nodeName, e.targetRef?.name])).toEqual([
      ['10.244.1.10', { ready: true, serving: true, terminating: false }, 'node-x', 'eps-a'],
      ['10.244.1.11', { ready: false, serving: false, terminating: false }, 'node-x', 'eps-b'],
    ]);
    const ep = await waitFor('Endpoints', async () => {
      const e = await env.cs.core.endpoints('default').get('web');
      return e.subsets?.[0]?.addresses?.length ? e : undefined;
    });
    expect(ep.subsets).toEqual([
      {
        addresses: [{ ip: '10.244.1.10', nodeName: 'node-x', targetRef: { kind: 'Pod', namespace: 'default', name: 'eps-a', uid: a.metadata.uid } }],
        notReadyAddresses: [{ ip: '10.244.1.11', nodeName: 'node-x', targetRef: { kind: 'Pod', namespace: 'default', name: 'eps-b', uid: b.metadata.uid } }],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ]);
    // b turns ready: the slice is updated in place
    await setPodReady(env.cs, b, true, 'node-x', '10.244.1.11');
    const updated = await waitFor('b ready in slice', async () => {
      const s = await env.cs.discovery.endpointSlices('default').get(slice.metadata.name ?? '');
      return s.endpoints.every((e) => e.conditions?.ready) ? s : undefined;
    });
    expect(updated.endpoints).toHaveLength(2);
  });

  it('runs one DaemonSet pod per eligible node, pinned by node affinity', async () => {
    for (const [name, labels, taints] of [
      ['ds-1', { role: 'edge' }, []],
      ['ds-2', { role: 'edge' }, [{ key: 'dedicated', value: 'x', effect: 'NoSchedule' }]],
      ['ds-3', { role: 'core' }, []],
    ] as const) {
      await env.cs.core.nodes().create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { ...labels } }, spec: { taints: [...taints] } });
    }
    const ds: DaemonSet = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { metadata: { labels: { app: 'agent' } }, spec: { nodeSelector: { role: 'edge' }, containers: [{ name: 'a', image: 'agent:1' }] } },
      },
    };
    await env.cs.apps.daemonSets('default').create(ds);
    const pods = await waitFor('1 daemon pod', async () => {
      const p = await appPods('default', 'agent');
      return p.length === 1 ? p : undefined;
    });
    expect(pods[0]!.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual({
      nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['ds-1'] }] }],
    });
    expect(pods[0]!.spec?.tolerations?.map((t) => `${t.key}:${t.effect}`)).toEqual(
      expect.arrayContaining(['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unschedulable:NoSchedule']),
    );
    const st = await waitFor('status', async () => {
      const d = await env.cs.apps.daemonSets('default').get('agent');
      return d.status?.currentNumberScheduled === 1 ? d.status : undefined;
    });
    expect(st).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1, numberMisscheduled: 0, numberReady: 0, updatedNumberScheduled: 1 });
  });

  it('gives each node a /24 podCIDR from the cluster CIDR, never twice', async () => {
    const cidrs = await waitFor('cidrs', async () => {
      const nodes = (await env.cs.core.nodes().list()).items.filter((n) => n.metadata.name?.startsWith('ds-'));
      return nodes.every((n) => n.spec?.podCIDR) ? nodes.map((n) => n.spec!.podCIDR!) : undefined;
    });
    expect(new Set(cidrs).size).toBe(3);
    for (const c of cidrs) expect(c).toMatch(/^10\.244\.\d+\.0\/24$/);
    const n = await env.cs.core.nodes().get('ds-1');
    expect(n.spec?.podCIDRs).toEqual([n.spec?.podCIDR]);
  });

  it('deletes pods bound to a node that no longer exists (pod GC)', async () => {
    await env.cs.core
      .pods('default')
      .create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'orphan', namespace: 'default' }, spec: { nodeName: 'gone-node', containers: [{ name: 'c', image: 'x' }] } });
    await waitFor('orphan deleted', async () => ((await env.cs.core.pods('default').list()).items.some((p) => p.metadata.name === 'orphan') ? undefined : true));
  });
});

describe.skipIf(!hasNats)('leader election', () => {
  let env: Env;
  beforeAll(async () => {
    env = await startEnv();
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  it('one of two controller-managers leads; the other takes over when it stops', async () => {
    const le = { leaderElect: true, leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200, config: { controllers: ['deployment-controller', 'replicaset-controller'] } };
    const a = await env.startCm({ ...le, identity: 'cm-a' });
    await waitFor('a leads', () => (a.isLeader() ? true : undefined));
    const b = await env.startCm({ ...le, identity: 'cm-b' });
    const lease = (await env.cs.coordination.leases('kube-system').get('kube-controller-manager')) as Lease;
    expect(lease.spec?.holderIdentity).toBe('cm-a');
    expect(b.isLeader()).toBe(false);
    await env.cs.apps.deployments('default').create(deployment('le', { replicas: 1 }));
    await waitFor('pod by a', async () => ((await env.cs.core.pods('default').list()).items.length === 1 ? true : undefined));
    // Scraped over HTTPS as the test admin: a client certificate of the cluster CA in system:masters, always allowed.
    const admin = env.cluster.clientConfig.tls;
    const metrics = async (cm: typeof a) => {
      const r = await secureGet(cm.healthPort, '/metrics', { cert: admin.certPem, key: admin.keyPem });
      expect(r.status).toBe(200);
      return r.body;
    };
    const masterStatus = async (cm: typeof a) => /^leader_election_master_status\{name="kube-controller-manager"\} (\d)$/m.exec(await metrics(cm))?.[1];
    expect(await masterStatus(a)).toBe('1');
    expect(await masterStatus(b)).toBe('0');
    // The leader's controllers' queues, labelled by upstream queue name.
    const aMetrics = await metrics(a);
    for (const q of ['deployment', 'replicaset']) {
      expect(aMetrics).toMatch(new RegExp(`^workqueue_adds_total\\{name="${q}"\\} [1-9]\\d*$`, 'm'));
      expect(aMetrics).toMatch(new RegExp(`^workqueue_depth\\{name="${q}"\\} \\d+$`, 'm'));
      expect(aMetrics).toMatch(new RegExp(`^workqueue_queue_duration_seconds_count\\{name="${q}"\\} [1-9]\\d*$`, 'm'));
      expect(aMetrics).toMatch(new RegExp(`^workqueue_work_duration_seconds_count\\{name="${q}"\\} [1-9]\\d*$`, 'm'));
    }
    await a.stop();
    await waitFor('b leads', () => (b.isLeader() ? true : undefined), { timeoutMs: 10_000 });
    expect((await env.cs.coordination.leases('kube-system').get('kube-controller-manager')).spec?.holderIdentity).toBe('cm-b');
    expect(await masterStatus(b)).toBe('1');
    await env.cs.apps.deployments('default').patch('le', 'merge', { spec: { replicas: 2 } });
    await waitFor('pods by b', async () => ((await env.cs.core.pods('default').list()).items.length === 2 ? true : undefined));
  });
});
