// The client library against a real apiserver on a real nats-server
// (loopback, free ports): typed CRUD, informers across apiserver and
// nats-server restarts and a 410 relist, leader election and events.
// Here rather than in packages/client: it needs the apiserver, and a package never depends on a service.

import type { ApiserverOptions, RunningApiserver } from '@kubelab/apiserver';
import { startApiserver } from '@kubelab/apiserver';
import { createTestPki, type ApiserverTestPki } from '@kubelab/apiserver/testing';
import { isConflict, isNotFound, StatusError, type ConfigMap, type Event, type Lease, type Pod } from '@kubelab/api';
import { freePort, requireTool, retrying, startNatsServer, waitFor, type NatsServerHandle } from '@kubelab/testing';
import {
  createClientset,
  DeletedFinalStateUnknown,
  LeaderElector,
  LeaseLock,
  newEventBroadcaster,
  SharedInformerFactory,
  type ClientLogger,
  type Clientset,
  type SharedIndexInformer,
} from '@kubelab/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const silentLogger: ClientLogger = { debug() {}, info() {}, warn() {}, error() {} };
const quiet = { ...silentLogger, with: () => quiet };
const hasNats = requireTool('nats-server');

let nats: NatsServerHandle;
let pki: ApiserverTestPki;
let grpcPort: number;
let apiserver: RunningApiserver;
let cs: Clientset;

function apiserverOptions(extra: Partial<ApiserverOptions> = {}): ApiserverOptions {
  return {
    natsUrl: nats.url,
    bindAddress: '127.0.0.1',
    advertiseAddress: '127.0.0.1',
    securePort: 0,
    grpcPort,
    rest: false,
    tls: pki.tls,
    // Bookmarks every 200 ms (upstream: a minute) keep an idle informer's revision current, so a restarted apiserver resumes it.
    bookmarkIntervalMs: 200,
    bookmarkFrequencyMs: 200,
    logger: quiet as unknown as ApiserverOptions['logger'],
    ...extra,
  };
}

async function restartApiserver(extra: Partial<ApiserverOptions> = {}): Promise<void> {
  await apiserver.stop();
  apiserver = await startApiserver(apiserverOptions(extra));
  await apiserver.ready;
}

/** Writes that ride out a reconnecting apiserver (bounded). */
const retryingWrite = <T>(fn: () => Promise<T>): Promise<T> => retrying(fn, (err) => StatusError.isInstance(err) && [500, 503, 504].includes(err.code), { timeoutMs: 20_000, everyMs: 100 });

const cm = (ns: string, name: string, data: Record<string, string> = {}): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { namespace: ns, name },
  data,
});

async function createNamespace(name: string): Promise<void> {
  await cs.core.namespaces().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/**
 * Every notification as `<name> <rv>`; a correct informer never reports the
 * same revision of an object twice and never goes back in revisions.
 */
function watchNotifications(inf: SharedIndexInformer<ConfigMap>) {
  const seen = new Map<string, number[]>();
  const note = (o: ConfigMap) => {
    const list = seen.get(o.metadata.name!) ?? [];
    list.push(Number(o.metadata.resourceVersion));
    seen.set(o.metadata.name!, list);
  };
  inf.addEventHandler({
    onAdd: note,
    // a relist or resync re-announces unchanged objects (old rv = new rv); controllers skip those
    onUpdate: (old, cur) => old.metadata.resourceVersion !== cur.metadata.resourceVersion && note(cur),
    onDelete: (o) => note(o instanceof DeletedFinalStateUnknown ? { ...o.obj, metadata: { ...o.obj.metadata, resourceVersion: `-${o.obj.metadata.resourceVersion}` } } : o),
  });
  return {
    duplicates(): string[] {
      const out: string[] = [];
      for (const [name, rvs] of seen) {
        const live = rvs.filter((r) => r > 0);
        for (let i = 1; i < live.length; i++) if (live[i]! <= live[i - 1]!) out.push(`${name}: ${live.join(',')}`);
      }
      return out;
    },
  };
}

async function cacheMatchesServer(inf: SharedIndexInformer<ConfigMap>, ns: string): Promise<boolean> {
  const server = (await cs.core.configMaps(ns).list()).items.map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`).sort();
  const cached = inf
    .getIndexer()
    .list()
    .map((o) => `${o.metadata.name}@${o.metadata.resourceVersion}`)
    .sort();
  return JSON.stringify(server) === JSON.stringify(cached);
}

describe.skipIf(!hasNats)('client against a real apiserver', () => {
  beforeAll(async () => {
    nats = await startNatsServer();
    pki = await createTestPki();
    grpcPort = await freePort();
    apiserver = await startApiserver(apiserverOptions());
    await apiserver.ready;
    cs = createClientset({ address: `127.0.0.1:${grpcPort}`, tls: pki.admin, component: 'client-integration-test' });
  }, 30_000);

  afterAll(async () => {
    cs?.close();
    await apiserver?.stop();
    await nats?.dispose();
  });

  it('pipelined creates answer exactly as Create calls do: objects, AlreadyExists, Invalid', async () => {
    await createNamespace('pipeline');
    const unary = createClientset({ address: `127.0.0.1:${grpcPort}`, tls: pki.admin, component: 'client-integration-test', pipelineWrites: false });
    try {
      const outcome = (p: Promise<ConfigMap>) =>
        p.then(
          (o) => `created ${o.metadata.name} rv=${/^\d+$/.test(o.metadata.resourceVersion ?? '') ? 'n' : o.metadata.resourceVersion}`,
          (e: StatusError) => `${e.code} ${e.reason}: ${e.message}`,
        );
      const piped = cs.core.configMaps('pipeline');
      // Issued together: they share stream messages; one duplicate, one invalid name.
      const names = ['p-0', 'p-1', 'p-0', 'Bad_Name', 'p-2'];
      const got = await Promise.all(names.map((n) => outcome(piped.create(cm('pipeline', n, { k: 'v' })))));
      const want = [
        'created p-0 rv=n',
        'created p-1 rv=n',
        '409 AlreadyExists: configmaps "p-0" already exists',
        await outcome(unary.core.configMaps('pipeline').create(cm('pipeline', 'Bad_Name'))),
        'created p-2 rv=n',
      ];
      expect(got).toEqual(want);
      expect(want[3]).toMatch(/^422 Invalid: ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name"/);
      expect(await outcome(unary.core.configMaps('pipeline').create(cm('pipeline', 'p-1')))).toBe(got[2]!.replace('p-0', 'p-1'));
      const stored = (await cs.core.configMaps('pipeline').list()).items.map((o) => `${o.metadata.name}=${o.data?.k}`);
      expect(stored).toEqual(['p-0=v', 'p-1=v', 'p-2=v']);
    } finally {
      unary.close();
    }
  });

  it('pipelined bindings answer exactly as Bind calls do: bound, already assigned, not found, invalid', async () => {
    await createNamespace('pipebind');
    const unary = createClientset({ address: `127.0.0.1:${grpcPort}`, tls: pki.admin, component: 'client-integration-test', pipelineWrites: false });
    try {
      const pod = (name: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'pipebind' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
      for (const n of ['p-a', 'p-b', 'p-c', 'p-d']) await cs.core.pods('pipebind').create(pod(n));
      const outcome = (p: Promise<void>) =>
        p.then(
          () => 'bound',
          (e: StatusError) => `${e.code} ${e.reason}: ${e.message}`,
        );
      const bind = (c: typeof cs, name: string, node: string) => c.core.pods('pipebind').bind({ metadata: { name, namespace: 'pipebind' }, target: { name: node } });
      // Issued together: they share stream messages; a second binding of p-a, a pod that does not exist, one without a node.
      const got = await Promise.all([bind(cs, 'p-a', 'node-1'), bind(cs, 'p-b', 'node-2'), bind(cs, 'missing', 'node-1'), bind(cs, 'p-c', '')].map(outcome));
      const again = await outcome(bind(cs, 'p-a', 'node-2'));
      const want = ['bound', 'bound', await outcome(bind(unary, 'missing', 'node-1')), await outcome(bind(unary, 'p-c', ''))];
      expect(got).toEqual(want);
      expect(want[2]).toBe('404 NotFound: pods "missing" not found');
      expect(want[3]).toMatch(/^422 Invalid: Binding "p-c" is invalid: target.name: Required value/);
      expect(again).toBe(await outcome(bind(unary, 'p-a', 'node-2')));
      expect(again).toBe('409 Conflict: Operation cannot be fulfilled on pods/binding "p-a": pod p-a is already assigned to node "node-1"');
      const placed = (await cs.core.pods('pipebind').list()).items.map((p) => `${p.metadata.name}=${p.spec?.nodeName ?? ''}`);
      expect(placed).toEqual(['p-a=node-1', 'p-b=node-2', 'p-c=', 'p-d=']);
      // The scheduler's condition, as a Bind call sets it.
      expect((await cs.core.pods('pipebind').get('p-a')).status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
    } finally {
      unary.close();
    }
  });

  it('pipelined updates and patches answer exactly as their calls do: written, Conflict, NotFound, Invalid, the status subresource', async () => {
    await createNamespace('pipewrite');
    const unary = createClientset({ address: `127.0.0.1:${grpcPort}`, tls: pki.admin, component: 'client-integration-test', pipelineWrites: false });
    try {
      const outcome = (p: Promise<{ metadata: { name?: string }; data?: Record<string, string> }>) =>
        p.then(
          (o) => `written ${o.metadata.name} ${JSON.stringify(o.data ?? {})}`,
          (e: StatusError) => `${e.code} ${e.reason}: ${e.message}`,
        );
      const piped = cs.core.configMaps('pipewrite');
      const direct = unary.core.configMaps('pipewrite');
      const a = await piped.create(cm('pipewrite', 'a', { k: '1' }));
      await piped.create(cm('pipewrite', 'b', { k: '1' }));
      // Issued together: they share stream messages.
      const got = await Promise.all([
        outcome(piped.update({ ...a, data: { k: '2' } })),
        outcome(piped.patch('b', 'merge', { data: { k: '3' } })),
        outcome(piped.patch('missing', 'merge', { data: { k: '3' } })),
        outcome(piped.patch('b', 'json', [{ op: 'replace', path: '/metadata/name', value: 'Bad_Name' }])),
      ]);
      expect(got.slice(0, 2)).toEqual(['written a {"k":"2"}', 'written b {"k":"3"}']);
      expect(got.slice(2)).toEqual([
        await outcome(direct.patch('missing', 'merge', { data: { k: '3' } })),
        await outcome(direct.patch('b', 'json', [{ op: 'replace', path: '/metadata/name', value: 'Bad_Name' }])),
      ]);
      expect(got[2]).toBe('404 NotFound: configmaps "missing" not found');
      // The stale update (a's first resourceVersion) is refused as an Update call refuses it.
      const stale = await outcome(piped.update({ ...a, data: { k: 'stale' } }));
      expect(stale).toBe(await outcome(direct.update({ ...a, data: { k: 'stale' } })));
      expect(stale).toBe('409 Conflict: Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again');
      // A status write on the stream reaches the status subresource only.
      const pods = cs.core.pods('pipewrite');
      const pod = await pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'pipewrite' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
      const written = await pods.updateStatus({ ...pod, spec: { ...pod.spec!, activeDeadlineSeconds: 5 }, status: { phase: 'Running' } });
      expect([written.status?.phase, written.spec?.activeDeadlineSeconds]).toEqual(['Running', undefined]);
      const patched = await pods.patch('web', 'merge', { status: { message: 'hello' } }, { subresource: 'status' });
      expect([patched.status?.phase, patched.status?.message]).toEqual(['Running', 'hello']);
      // A token request on the stream (this apiserver has no signing key) answers as a CreateToken call does.
      const token = (c: typeof cs) =>
        c.core
          .serviceAccounts('pipewrite')
          .createToken('default', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: [] } })
          .then(
            () => 'issued',
            (e: StatusError) => `${e.code} ${e.reason}: ${e.message}`,
          );
      expect(await token(cs)).toBe(await token(unary));
      expect(await token(cs)).toBe('404 NotFound: the server could not find the requested resource (resource: "serviceaccounts/token" in group "" version "v1" is not served)');
    } finally {
      unary.close();
    }
  });

  it('creates, reads, updates with optimistic concurrency, patches, binds and deletes', async () => {
    await createNamespace('crud');
    const cms = cs.core.configMaps('crud');
    const created = await cms.create(cm('crud', 'settings', { a: '1' }));
    expect(created.metadata).toMatchObject({ name: 'settings', namespace: 'crud' });
    expect(created.metadata.uid).toBeTruthy();

    const stale = { ...created, data: { a: '2' } };
    const fresh = await cms.update({ ...created, data: { a: '3' } });
    const err = await cms.update(stale).catch((e: unknown) => e);
    expect(isConflict(err)).toBe(true);
    expect((err as StatusError).message).toBe('Operation cannot be fulfilled on configmaps "settings": the object has been modified; please apply your changes to the latest version and try again');

    const patched = await cms.patch('settings', 'merge', { data: { b: 'x' } });
    expect(patched.data).toEqual({ a: '3', b: 'x' });
    expect(Number(patched.metadata.resourceVersion)).toBeGreaterThan(Number(fresh.metadata.resourceVersion));

    const list = await cms.list();
    expect(list.items.map((i) => i.metadata.name)).toEqual(['settings']);

    const pods = cs.core.pods('crud');
    await pods.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'crud' }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } });
    await pods.bind({ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web-1', namespace: 'crud' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } });
    expect((await pods.get('web-1')).spec?.nodeName).toBe('node-1');

    const del = await cms.delete('settings');
    expect(del.deleted).toBe(true);
    const gone = await cms.get('settings').catch((e: unknown) => e);
    expect(isNotFound(gone)).toBe(true);
    expect((gone as StatusError).message).toBe('configmaps "settings" not found');
  });

  it("gives the kubelet only its node's pods through a field-selected informer with the nodeName index", async () => {
    await createNamespace('sched');
    const pods = cs.core.pods('sched');
    const pod = (name: string): Pod => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'sched' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
    for (const n of ['a', 'b', 'c']) await pods.create(pod(n));
    await pods.bind({ metadata: { name: 'a', namespace: 'sched' }, target: { name: 'node-1' } });
    await pods.bind({ metadata: { name: 'b', namespace: 'sched' }, target: { name: 'node-2' } });
    const factory = new SharedInformerFactory(cs, { logger: silentLogger });
    const mine = factory.core.pods({ fieldSelector: 'spec.nodeName=node-1' });
    const all = factory.core.pods();
    factory.start();
    expect(Object.values(await factory.waitForCacheSync())).toEqual([true, true]);
    try {
      expect(
        mine
          .lister()
          .list()
          .map((p) => p.metadata.name)
          .filter((n) => ['a', 'b', 'c'].includes(n!)),
      ).toEqual(['a']);
      await pods.bind({ metadata: { name: 'c', namespace: 'sched' }, target: { name: 'node-1' } });
      await waitFor('pod c on node-1', () => mine.lister().namespace('sched').get('c') !== undefined);
      const onNode1 = all
        .lister()
        .byIndex('spec.nodeName', 'node-1')
        .filter((p) => p.metadata.namespace === 'sched');
      expect(onNode1.map((p) => p.metadata.name).sort()).toEqual(['a', 'c']);
    } finally {
      await factory.shutdown();
    }
  });

  it('informer resumes across an apiserver restart and a nats-server restart without missing or repeating', async () => {
    await createNamespace('resume');
    const cms = cs.core.configMaps('resume');
    for (let i = 0; i < 5; i++) await cms.create(cm('resume', `cm-${i}`, { v: '0' }));
    const factory = new SharedInformerFactory(cs, { namespace: 'resume', logger: silentLogger, reflector: { backoff: { initialMs: 100, maxMs: 500 } } });
    const inf = factory.core.configMaps();
    const notes = watchNotifications(inf);
    factory.start();
    await factory.waitForCacheSync();
    try {
      // apiserver restart: the watch drops and resumes from the last revision
      await restartApiserver();
      await cms.update({ ...(await cms.get('cm-0')), data: { v: '1' } });
      await cms.delete('cm-1');
      await cms.create(cm('resume', 'cm-new'));
      await waitFor('cache after apiserver restart', () => cacheMatchesServer(inf, 'resume'));
      expect(inf.reflectorStats.lists).toBe(1);
      expect(inf.reflectorStats.resumes).toBeGreaterThanOrEqual(1);

      // nats-server restart: the apiserver reconnects to its store; the informer keeps up
      await nats.restart();
      await retryingWrite(async () => cms.update({ ...(await cms.get('cm-2')), data: { v: '2' } }));
      await retryingWrite(() => cms.delete('cm-3'));
      await retryingWrite(() => cms.create(cm('resume', 'cm-after-nats')));
      await waitFor('cache after nats-server restart', () => cacheMatchesServer(inf, 'resume'));
      expect(inf.lister().namespace('resume').get('cm-2')?.data).toEqual({ v: '2' });
      expect(inf.lister().namespace('resume').get('cm-3')).toBeUndefined();
      expect(notes.duplicates()).toEqual([]);
    } finally {
      await factory.shutdown();
    }
  }, 60_000);

  it('relists on 410 when the apiserver no longer holds the revision, with tombstones for what it missed', async () => {
    await createNamespace('relist');
    const cms = cs.core.configMaps('relist');
    for (let i = 0; i < 3; i++) await cms.create(cm('relist', `cm-${i}`));
    const factory = new SharedInformerFactory(cs, { namespace: 'relist', logger: silentLogger, reflector: { backoff: { initialMs: 100, maxMs: 500 } } });
    const inf = factory.core.configMaps();
    const notes = watchNotifications(inf);
    const tombstones: string[] = [];
    inf.addEventHandler({ onDelete: (o) => o instanceof DeletedFinalStateUnknown && tombstones.push(o.key) });
    factory.start();
    await factory.waitForCacheSync();
    try {
      // while our apiserver is down, a second apiserver on the same store takes writes
      await apiserver.stop();
      const otherPort = await freePort();
      const other = await startApiserver(apiserverOptions({ grpcPort: otherPort }));
      await other.ready;
      const otherCs = createClientset({ address: `127.0.0.1:${otherPort}`, tls: pki.admin, component: 'other' });
      try {
        const ocms = otherCs.core.configMaps('relist');
        await ocms.delete('cm-0');
        await ocms.update({ ...(await ocms.get('cm-1')), data: { changed: 'yes' } });
        await ocms.create(cm('relist', 'cm-late'));
      } finally {
        otherCs.close();
        await other.stop();
      }
      // ours comes back with a watch cache starting after those writes: resuming is 410
      apiserver = await startApiserver(apiserverOptions());
      await apiserver.ready;
      await waitFor('cache after relist', () => cacheMatchesServer(inf, 'relist'));
      expect(inf.reflectorStats.relistsOn410).toBeGreaterThanOrEqual(1);
      expect(tombstones).toEqual(['relist/cm-0']);
      expect(inf.lister().namespace('relist').get('cm-1')?.data).toEqual({ changed: 'yes' });
      expect(notes.duplicates()).toEqual([]);
    } finally {
      await factory.shutdown();
    }
  }, 60_000);

  it('elects one leader, hands over on release, and records repeated events as one with a count', async () => {
    const leases = cs.coordination.leases('kube-system');
    const log: string[] = [];
    const elector = (id: string) =>
      new LeaderElector({
        lock: new LeaseLock(leases, 'kube-system', 'kube-controller-manager', id),
        leaseDurationMs: 3000,
        renewDeadlineMs: 2000,
        retryPeriodMs: 200,
        releaseOnCancel: true,
        logger: silentLogger,
        callbacks: { onStartedLeading: () => void log.push(`${id} started`), onStoppedLeading: () => void log.push(`${id} stopped`) },
      });
    const a = new AbortController();
    const b = new AbortController();
    const runA = elector('cm-a').run(a.signal);
    await waitFor('cm-a leads', () => log.includes('cm-a started'));
    const runB = elector('cm-b').run(b.signal);
    const lease1 = await leases.get('kube-controller-manager');
    expect(lease1.spec).toMatchObject({ holderIdentity: 'cm-a', leaseDurationSeconds: 3, leaseTransitions: 0 });
    expect(lease1.spec?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    a.abort();
    await runA;
    await waitFor('cm-b leads', () => log.includes('cm-b started'), { timeoutMs: 5000 });
    expect(log).toEqual(['cm-a started', 'cm-a stopped', 'cm-b started']);
    const lease2: Lease = await leases.get('kube-controller-manager');
    expect(lease2.spec).toMatchObject({ holderIdentity: 'cm-b', leaseTransitions: 1 });
    b.abort();
    await runB;

    await createNamespace('events');
    const broadcaster = newEventBroadcaster(cs, { logger: silentLogger });
    const recorder = broadcaster.newRecorder({ component: 'kubelet', host: 'node-1' });
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probedemo', namespace: 'events', uid: 'u1' } };
    recorder.event(pod, 'Warning', 'Unhealthy', 'Liveness probe failed: cat: /tmp/healthy: No such file or directory');
    recorder.event(pod, 'Warning', 'Unhealthy', 'Liveness probe failed: cat: /tmp/healthy: No such file or directory');
    await broadcaster.flush();
    await broadcaster.shutdown();
    const events = (await cs.core.events('events').list()).items as Event[];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      reason: 'Unhealthy',
      type: 'Warning',
      count: 2,
      source: { component: 'kubelet', host: 'node-1' },
      involvedObject: { kind: 'Pod', name: 'probedemo', namespace: 'events', uid: 'u1' },
    });
  }, 30_000);
});
