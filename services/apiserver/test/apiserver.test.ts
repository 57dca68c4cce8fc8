// The storage and API semantics through the gRPC API against a real
// nats-server: CRUD, compare-and-swap, metadata, subresources, deletion.

import { describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import type { KubeObject } from '@kubelab/api';
import { gvr, openWatch, RpcError, rpcError, startTestCluster } from '../src/testing/index.js';
import { useTestCluster } from './harness.js';

const PODS = gvr('pods');
const CMS = gvr('configmaps');
const NS = gvr('namespaces');
const SVC = gvr('services');
const DEPLOY = gvr('deployments', 'apps');

type Pod = KubeObject & { spec: Record<string, unknown> & { nodeName?: string }; status?: Record<string, unknown> & { conditions?: Array<{ type: string; status: string }> } };

const pod = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx:1.27' }], ...extra },
});

describe.runIf(requireTool('nats-server'))('apiserver storage and API', () => {
  const t = useTestCluster();

  it('bootstraps the system namespaces and the kubernetes Service at 10.96.0.1', async () => {
    const ns = await t.k.list(NS);
    expect(ns.items.map((n) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const svc = await t.k.get<KubeObject & { spec: { clusterIP: string; ports: unknown[] } }>(SVC, 'default', 'kubernetes');
    expect(svc.spec.clusterIP).toBe('10.96.0.1');
    expect(svc.spec.ports).toEqual([{ name: 'https', protocol: 'TCP', port: 443, targetPort: t.c.apiserver.restPort }]);
    const slice = await t.k.get<KubeObject & { endpoints: unknown[]; ports: unknown[] }>(gvr('endpointslices', 'discovery.k8s.io'), 'default', 'kubernetes');
    expect(slice.metadata.labels).toEqual({ 'kubernetes.io/service-name': 'kubernetes' });
    expect(slice.ports).toEqual([{ name: 'https', port: t.c.apiserver.restPort, protocol: 'TCP' }]);
  });

  it('creates with server-managed metadata and refuses a duplicate with AlreadyExists', async () => {
    const created = await t.k.create<Pod>(PODS, 'default', pod('crud-1'));
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(created.metadata.namespace).toBe('default');
    expect(created.status).toEqual(expect.objectContaining({ phase: 'Pending' }));
    const got = await t.k.get<Pod>(PODS, 'default', 'crud-1');
    expect(got).toEqual(created);

    const dup = await rpcError(t.k.create(PODS, 'default', pod('crud-1')));
    expect(dup.grpcCode).toBe(6); // ALREADY_EXISTS
    expect(dup.status).toMatchObject({ code: 409, reason: 'AlreadyExists', message: 'pods "crud-1" already exists' });
  });

  it('fills generateName with a 5-character suffix', async () => {
    const created = await t.k.create(CMS, 'default', { metadata: { generateName: 'gen-' }, data: { a: '1' } });
    expect(created.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('update is compare-and-swap: a stale resourceVersion is a Conflict with the upstream text', async () => {
    const v1 = await t.k.create(CMS, 'default', { metadata: { name: 'cas' }, data: { n: '1' } });
    const v2 = await t.k.update(CMS, 'default', { ...v1, data: { n: '2' } } as KubeObject);
    expect(Number(v2.metadata.resourceVersion)).toBeGreaterThan(Number(v1.metadata.resourceVersion));
    const stale = await rpcError(t.k.update(CMS, 'default', { ...v1, data: { n: '3' } } as KubeObject));
    expect(stale.grpcCode).toBe(10); // ABORTED
    expect(stale.status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on configmaps "cas": the object has been modified; please apply your changes to the latest version and try again',
    });
    expect((await t.k.get<KubeObject & { data: object }>(CMS, 'default', 'cas')).data).toEqual({ n: '2' });
  });

  it('an update without a resourceVersion replaces the latest object (upstream AllowUnconditionalUpdate)', async () => {
    const v1 = await t.k.create(CMS, 'default', { metadata: { name: 'uncond' }, data: { n: '1' } });
    const v2 = await t.k.update(CMS, 'default', { metadata: { name: 'uncond' }, data: { n: '2' } } as KubeObject);
    expect((v2 as KubeObject & { data: object }).data).toEqual({ n: '2' });
    expect(Number(v2.metadata.resourceVersion)).toBeGreaterThan(Number(v1.metadata.resourceVersion));
    expect(v2.metadata.uid).toBe(v1.metadata.uid);
  });

  it('reads its own writes: a list right after a write contains it', async () => {
    for (let i = 0; i < 20; i++) {
      const o = await t.k.create(CMS, 'default', { metadata: { name: `ryw-${i}` } });
      const list = await t.k.list(CMS, 'default');
      expect(list.items.map((x) => x.metadata.name)).toContain(`ryw-${i}`);
      expect(Number(list.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(o.metadata.resourceVersion));
    }
  });

  it('50 concurrent read-modify-write writers lose no increment', async () => {
    await t.k.create(CMS, 'default', { metadata: { name: 'counter' }, data: { n: '0' } });
    const writers = 50;
    let conflicts = 0;
    await Promise.all(
      Array.from({ length: writers }, async () => {
        for (;;) {
          const cur = await t.k.get<KubeObject & { data: { n: string } }>(CMS, 'default', 'counter');
          try {
            await t.k.update(CMS, 'default', { ...cur, data: { n: String(Number(cur.data.n) + 1) } } as KubeObject);
            return;
          } catch (e) {
            if (e instanceof RpcError && e.status.reason === 'Conflict') {
              conflicts++;
              continue;
            }
            throw e;
          }
        }
      }),
    );
    const final = await t.k.get<KubeObject & { data: { n: string } }>(CMS, 'default', 'counter');
    expect(final.data.n).toBe(String(writers));
    expect(conflicts).toBeGreaterThan(0); // the race really happened
  });

  it('generation starts at 1 and is bumped by spec changes only; status writes change only status', async () => {
    const d = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    };
    const created = await t.k.create<KubeObject & { spec: { replicas: number }; status?: unknown }>(DEPLOY, 'default', d);
    expect(created.metadata.generation).toBe(1);
    const labelled = await t.k.patch<typeof created>(DEPLOY, 'default', 'web', { metadata: { labels: { tier: 'x' } } });
    expect(labelled.metadata.generation).toBe(1);
    const scaled = await t.k.patch<typeof created>(DEPLOY, 'default', 'web', { spec: { replicas: 3 } });
    expect(scaled.metadata.generation).toBe(2);
    // The main resource ignores status; the status subresource ignores spec.
    const ignored = await t.k.update<typeof created>(DEPLOY, 'default', { ...scaled, status: { replicas: 99 } } as KubeObject);
    expect(ignored.status).toEqual(scaled.status);
    const st = await t.k.updateStatus<typeof created>(DEPLOY, 'default', { ...ignored, spec: { ...ignored.spec, replicas: 7 }, status: { replicas: 3 } } as KubeObject);
    expect(st.status).toEqual({ replicas: 3 });
    expect(st.spec.replicas).toBe(3);
    expect(st.metadata.generation).toBe(2);
  });

  it('validates: 422 Invalid names the field', async () => {
    const bad = await rpcError(t.k.create(CMS, 'default', { metadata: { name: 'Bad_Name' } }));
    expect(bad.grpcCode).toBe(3); // INVALID_ARGUMENT
    expect(bad.status.code).toBe(422);
    expect(bad.status.reason).toBe('Invalid');
    expect(bad.status.message).toContain('ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"');
    expect(bad.status.details?.causes?.[0]).toMatchObject({ field: 'metadata.name', reason: 'FieldValueInvalid' });
  });

  it('refuses objects in a missing namespace, and in a terminating one', async () => {
    const missing = await rpcError(t.k.create(CMS, 'nope', { metadata: { name: 'x' } }));
    expect(missing.status).toMatchObject({ code: 404, message: 'namespaces "nope" not found' });
    await t.k.create(NS, '', { metadata: { name: 'doomed' } });
    await t.k.create(CMS, 'doomed', { metadata: { name: 'keep' } });
    const del = await t.k.delete(NS, '', 'doomed');
    expect(del.deleted).toBe(false);
    expect((del.object as KubeObject & { status: { phase: string } }).status.phase).toBe('Terminating');
    const refused = await rpcError(t.k.create(CMS, 'doomed', { metadata: { name: 'y' } }));
    expect(refused.status).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'configmaps "y" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    });
    // The namespace controller's finalize write lets it go.
    await t.k.patch(NS, '', 'doomed', { spec: { finalizers: [] } }, 'application/merge-patch+json', 'finalize');
    await expect(t.k.get(NS, '', 'doomed')).rejects.toMatchObject({ status: { code: 404 } });
    const immortal = await rpcError(t.k.delete(NS, '', 'default'));
    expect(immortal.status.message).toBe('namespaces "default" is forbidden: this namespace may not be deleted');
  });

  it('adds the default not-ready/unreachable tolerations and the default service account', async () => {
    const p = await t.k.create<Pod>(PODS, 'default', pod('tol', { tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] }));
    expect(p.spec.tolerations).toEqual([
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    expect(p.spec.serviceAccountName).toBe('default');
  });

  it('binds a pod once: spec.nodeName and PodScheduled, then 409 for a second binding', async () => {
    await t.k.create(PODS, 'default', pod('bindme'));
    await t.k.bind('default', 'bindme', 'node-1');
    const p = await t.k.get<Pod>(PODS, 'default', 'bindme');
    expect(p.spec.nodeName).toBe('node-1');
    expect(p.status?.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
    const again = await rpcError(t.k.bind('default', 'bindme', 'node-2'));
    expect(again.status).toMatchObject({ code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on pods/binding "bindme": pod bindme is already assigned to node "node-1"' });
    const missing = await rpcError(t.k.bind('default', 'ghost', 'node-1'));
    expect(missing.status.message).toBe('pods "ghost" not found');
  });

  it("deletes a scheduled pod gracefully; the kubelet's grace-0 delete removes it", async () => {
    await t.k.create(PODS, 'default', pod('graceful', { terminationGracePeriodSeconds: 20 }));
    await t.k.bind('default', 'graceful', 'node-1');
    const first = await t.k.delete<Pod>(PODS, 'default', 'graceful');
    expect(first.deleted).toBe(false);
    expect(first.object.metadata.deletionGracePeriodSeconds).toBe(20);
    const ts = Date.parse(first.object.metadata.deletionTimestamp!);
    expect(ts - Date.now()).toBeGreaterThan(15_000);
    // A longer grace period does not extend it.
    const second = await t.k.delete<Pod>(PODS, 'default', 'graceful', { gracePeriodSeconds: 60 });
    expect(second.object.metadata.deletionGracePeriodSeconds).toBe(20);
    const fin = await t.k.delete<Pod>(PODS, 'default', 'graceful', { gracePeriodSeconds: 0, preconditions: { uid: first.object.metadata.uid } });
    expect(fin.deleted).toBe(true);
    await expect(t.k.get(PODS, 'default', 'graceful')).rejects.toMatchObject({ status: { code: 404 } });
    // Unscheduled pods go at once.
    await t.k.create(PODS, 'default', pod('unscheduled'));
    expect((await t.k.delete(PODS, 'default', 'unscheduled')).deleted).toBe(true);
  });

  it('honours delete preconditions', async () => {
    const cm = await t.k.create(CMS, 'default', { metadata: { name: 'pre' } });
    const wrongUid = await rpcError(t.k.delete(CMS, 'default', 'pre', { preconditions: { uid: 'x' } }));
    expect(wrongUid.status.message).toBe(`Operation cannot be fulfilled on configmaps "pre": Precondition failed: UID in precondition: x, UID in object meta: ${cm.metadata.uid}`);
    const wrongRv = await rpcError(t.k.delete(CMS, 'default', 'pre', { preconditions: { resourceVersion: '1' } }));
    expect(wrongRv.status.reason).toBe('Conflict');
    expect((await t.k.delete(CMS, 'default', 'pre', { preconditions: { uid: cm.metadata.uid, resourceVersion: cm.metadata.resourceVersion } })).deleted).toBe(true);
  });

  it('keeps an object with finalizers until the last one is removed', async () => {
    await t.k.create(CMS, 'default', { metadata: { name: 'fin', finalizers: ['example.com/hold'] } });
    const del = await t.k.delete(CMS, 'default', 'fin');
    expect(del.deleted).toBe(false);
    expect(del.object.metadata.deletionTimestamp).toBeDefined();
    expect(del.object.metadata.deletionGracePeriodSeconds).toBe(0);
    const still = await t.k.get(CMS, 'default', 'fin');
    expect(still.metadata.finalizers).toEqual(['example.com/hold']);
    await t.k.patch(CMS, 'default', 'fin', { metadata: { finalizers: null } });
    await expect(t.k.get(CMS, 'default', 'fin')).rejects.toMatchObject({ status: { code: 404, message: 'configmaps "fin" not found' } });
  });

  it('allocates ClusterIPs without duplicates, frees them on delete, and NodePorts in range', async () => {
    const ips = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const s = await t.k.create<KubeObject & { spec: { clusterIP: string } }>(SVC, 'default', { metadata: { name: `s${i}` }, spec: { ports: [{ port: 80 }] } });
      expect(s.spec.clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\.\d+\.\d+$/);
      ips.add(s.spec.clusterIP);
    }
    expect(ips.size).toBe(10);
    const taken = [...ips][0]!;
    const dup = await rpcError(t.k.create(SVC, 'default', { metadata: { name: 'dup' }, spec: { clusterIP: taken, ports: [{ port: 80 }] } }));
    expect(dup.status.message).toContain(`spec.clusterIPs: Invalid value: []string{"${taken}"}: failed to allocate IP ${taken}: provided IP is already allocated`);
    const owner = (await t.k.list<KubeObject & { spec: { clusterIP: string } }>(SVC, 'default')).items.find((s) => s.spec.clusterIP === taken)!;
    await t.k.delete(SVC, 'default', owner.metadata.name!);
    const reuse = await t.k.create<KubeObject & { spec: { clusterIP: string } }>(SVC, 'default', { metadata: { name: 'reuse' }, spec: { clusterIP: taken, ports: [{ port: 80 }] } });
    expect(reuse.spec.clusterIP).toBe(taken);
    const np = await t.k.create<KubeObject & { spec: { ports: Array<{ nodePort: number }> } }>(SVC, 'default', { metadata: { name: 'np' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } });
    expect(np.spec.ports[0]!.nodePort).toBeGreaterThanOrEqual(30000);
    expect(np.spec.ports[0]!.nodePort).toBeLessThanOrEqual(32767);
    const npDup = await rpcError(t.k.create(SVC, 'default', { metadata: { name: 'np2' }, spec: { type: 'NodePort', ports: [{ port: 80, nodePort: np.spec.ports[0]!.nodePort }] } }));
    expect(npDup.status.message).toContain(`spec.ports[0].nodePort: Invalid value: ${np.spec.ports[0]!.nodePort}: provided port is already allocated`);
  });

  it('dryRun=All admits and validates without storing', async () => {
    const o = await t.k.create(CMS, 'default', { metadata: { name: 'dry' } }, { dryRun: 'All' });
    expect(o.metadata.uid).toBeDefined();
    await expect(t.k.get(CMS, 'default', 'dry')).rejects.toMatchObject({ status: { code: 404 } });
  });

  it('refuses an object over the storage limit with 413 / RESOURCE_EXHAUSTED', async () => {
    // Under ConfigMap validation's 1 MiB data limit, over what one NATS message (default max_payload 1 MiB) can store.
    const big = 'x'.repeat(1_046_000);
    const e = await rpcError(t.k.create(CMS, 'default', { metadata: { name: 'big' }, data: { big } }));
    expect(e.grpcCode).toBe(8); // RESOURCE_EXHAUSTED
    expect(e.status.code).toBe(413);
    expect(e.status.message).toMatch(/^Request entity too large: configmaps "big" is \d+ bytes when stored, over the \d+-byte object limit \(etcdserver: request is too large\)$/);
  });

  it('pages lists with limit/continue in key order', async () => {
    await t.k.create(NS, '', { metadata: { name: 'paging' } });
    for (let i = 0; i < 7; i++) await t.k.create(CMS, 'paging', { metadata: { name: `p${i}` } });
    const names: string[] = [];
    let cont = '';
    let pages = 0;
    do {
      const page = await t.k.list(CMS, 'paging', { limit: 3, continue: cont });
      names.push(...page.items.map((i) => i.metadata.name!));
      cont = page.metadata.continue ?? '';
      pages++;
    } while (cont);
    expect(pages).toBe(3);
    expect(names).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
  });

  it('filters lists by label and field selectors', async () => {
    await t.k.create(NS, '', { metadata: { name: 'sel' } });
    await t.k.create(PODS, 'sel', { ...pod('a'), metadata: { name: 'a', labels: { app: 'x' } } });
    await t.k.create(PODS, 'sel', { ...pod('b'), metadata: { name: 'b', labels: { app: 'y' } } });
    await t.k.bind('sel', 'b', 'node-9');
    expect((await t.k.list(PODS, 'sel', { labelSelector: 'app=x' })).items.map((p) => p.metadata.name)).toEqual(['a']);
    expect((await t.k.list(PODS, 'sel', { labelSelector: 'app in (x,y)' })).items.map((p) => p.metadata.name)).toEqual(['a', 'b']);
    expect((await t.k.list(PODS, '', { fieldSelector: 'spec.nodeName=node-9' })).items.map((p) => p.metadata.name)).toEqual(['b']);
  });

  it('counts requests in apiserver_request_total / _duration_seconds with upstream labels', async () => {
    await t.k.create(NS, '', { metadata: { name: 'metrics' } });
    await t.k.create(PODS, 'metrics', pod('m'));
    await t.k.list(PODS, 'metrics');
    await t.k.bind('metrics', 'm', 'node-1');
    await rpcError(t.k.get(PODS, 'metrics', 'missing'));
    const { body: text } = await t.c.rest('/metrics');
    const sample = (name: string, labels: string) => new RegExp(`^${name}\\{${labels.replace(/[{}]/g, '\\$&')}\\} [1-9]\\d*$`, 'm');
    const core = 'group="",version="v1",resource="pods"';
    expect(text).toMatch(sample('apiserver_request_total', `verb="POST",dry_run="",${core},subresource="",scope="namespace",component="apiserver",code="201"`));
    expect(text).toMatch(sample('apiserver_request_total', `verb="LIST",dry_run="",${core},subresource="",scope="namespace",component="apiserver",code="200"`));
    expect(text).toMatch(sample('apiserver_request_total', `verb="POST",dry_run="",${core},subresource="binding",scope="resource",component="apiserver",code="201"`));
    expect(text).toMatch(sample('apiserver_request_total', `verb="GET",dry_run="",${core},subresource="",scope="resource",component="apiserver",code="404"`));
    expect(text).toMatch(sample('apiserver_request_total', 'verb="POST",dry_run="",group="",version="v1",resource="namespaces",subresource="",scope="cluster",component="apiserver",code="201"'));
    expect(text).toMatch(sample('apiserver_request_duration_seconds_count', `verb="LIST",dry_run="",${core},subresource="",scope="namespace",component="apiserver"`));
    expect(text).toContain('apiserver_request_duration_seconds_bucket{le="0.005",verb="LIST"');
    // NATS KV in etcd's role: its calls are counted and timed under etcd's metric names.
    expect(text).toMatch(sample('etcd_requests_total', 'operation="create",group="",resource="pods",component="apiserver"'));
    expect(text).toMatch(sample('etcd_requests_total', 'operation="update",group="",resource="pods",component="apiserver"'));
    expect(text).toMatch(sample('etcd_request_duration_seconds_count', 'operation="create",group="",resource="pods",component="apiserver"'));
  });
});

describe.runIf(requireTool('nats-server'))('apiserver request metrics of long-running requests (REST on)', () => {
  const t = useTestCluster({ rest: true });

  it('counts a watch in apiserver_longrunning_requests while it lasts, then as WATCH; a pod stream as CONNECT', async () => {
    const scrape = async () => (await t.c.rest('/metrics')).body;
    const watchLabels = 'group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver"';
    const running = (text: string) => Number(new RegExp(`^apiserver_longrunning_requests\\{verb="WATCH",${watchLabels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const watched = (text: string) => Number(new RegExp(`^apiserver_request_total\\{verb="WATCH",dry_run="",${watchLabels},code="200"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    const before = await scrape();
    const w = openWatch(t.client, { resource: CMS, namespace: 'default', resourceVersion: '0' });
    await t.k.create(CMS, 'default', { metadata: { name: 'lr-watch' } });
    await w.until((evs) => evs.some((e) => e.object.metadata.name === 'lr-watch'));
    const during = await scrape();
    expect(running(during)).toBe(running(before) + 1);
    w.close();
    await waitFor('the watch to be counted', async () => watched(await scrape()) === watched(before) + 1, { timeoutMs: 5_000 });
    expect(running(await scrape())).toBe(running(before));

    // pods/exec on a pod no node runs: refused with 400, counted as CONNECT with its subresource.
    await t.k.create(PODS, 'default', pod('lr-exec'));
    const exec = await t.c.rest('/api/v1/namespaces/default/pods/lr-exec/exec?command=true&stdout=true', { method: 'POST' });
    expect(exec.status).toBe(400);
    expect(await scrape()).toMatch(
      /^apiserver_request_total\{verb="CONNECT",dry_run="",group="",version="v1",resource="pods",subresource="exec",scope="resource",component="apiserver",code="400"\} 1$/m,
    );
  });
});

describe.runIf(requireTool('nats-server'))('admission plugins on by default: TaintNodesByCondition', () => {
  const t = useTestCluster({ disableAdmissionPlugins: [] });
  type Node = KubeObject & { spec?: { taints?: Array<{ key: string; effect: string }> } };
  const NODES = gvr('nodes');

  it("creates every Node with the not-ready NoSchedule taint, beside the Node's own", async () => {
    const bare = await t.k.create<Node>(NODES, '', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'tnbc-1' } });
    expect(bare.spec?.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
    const own = await t.k.create<Node>(NODES, '', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'tnbc-2' }, spec: { taints: [{ key: 'dedicated', effect: 'NoSchedule' }] } });
    expect(own.spec?.taints).toEqual([
      { key: 'dedicated', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ]);
    // Only creates: the node lifecycle controller lifts it later with an update.
    const lifted = await t.k.update<Node>(NODES, '', { ...bare, spec: { taints: [] } } as Node);
    expect(lifted.spec?.taints ?? []).toEqual([]);
  });

  it('refuses to start with a plugin name it does not know', async () => {
    await expect(startTestCluster({ disableAdmissionPlugins: ['NoSuchPlugin'] })).rejects.toThrow('disable-admission-plugins plugin "NoSuchPlugin" is unknown');
  });
});
