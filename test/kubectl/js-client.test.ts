// The official JavaScript client (@kubernetes/client-node 1.4.x, the line
// that runs on Node 20) against kubelab with the kubeconfig kubeadm would
// write: the calls a learner's script or tiny operator makes — lists with
// pagination, watches and informers, the patch types, exec, attach, logs.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Attach, CoreV1Api, Cp, Exec, KubeConfig, Log, makeInformer, PatchStrategy, setHeaderOptions, Watch, type V1ConfigMap, type V1Status } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool, waitFor } from '@kubelab/testing';
import { POLL, startCluster, type Cluster } from './harness.js';
import { startNode } from './node.js';

const PODS = `apiVersion: v1
kind: Pod
metadata:
  name: box
spec:
  nodeName: node-1
  containers:
  - name: app
    image: busybox:1.36
    command: ["sh", "-c", "echo box up; sleep 100000"]
---
apiVersion: v1
kind: Pod
metadata:
  name: talker
spec:
  nodeName: node-1
  containers:
  - name: app
    image: busybox:1.36
    stdin: true
    command: ["sh"]
`;

/** A Writable collecting what it is given as text. */
function sink(): Writable & { text: () => string } {
  let out = '';
  const w = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out += chunk.toString();
      cb();
    },
  });
  return Object.assign(w, { text: () => out });
}

describe.runIf(requireTool('kubectl'))('@kubernetes/client-node 1.4 against kubelab', { timeout: 60_000 }, () => {
  let c: Cluster;
  let node: Awaited<ReturnType<typeof startNode>> | undefined;
  let kc: KubeConfig;
  let core: CoreV1Api;

  beforeAll(async () => {
    c = await startCluster();
    node = await startNode(c, 'js-client');
    kc = new KubeConfig();
    kc.loadFromFile(join(c.dir, 'kubeconfig'));
    core = kc.makeApiClient(CoreV1Api);
    expect((await c.kubectl(['apply', '-f', '-'], { stdin: PODS })).code).toBe(0);
    await waitFor(
      'box and talker Running',
      async () => {
        const pods = (await c.kubectl(['get', 'pods', '--no-headers'])).stdout;
        return /^box\s+1\/1\s+Running/m.test(pods) && /^talker\s+1\/1\s+Running/m.test(pods);
      },
      { ...POLL, timeoutMs: 30_000 },
    );
  }, 60_000);

  afterAll(async () => {
    await node?.stop();
    await c?.stop();
  });

  it('pages a list with limit and continue, each page at the first page’s resourceVersion', async () => {
    await core.createNamespace({ body: { metadata: { name: 'paging' } } });
    for (let i = 0; i < 5; i++) await core.createNamespacedConfigMap({ namespace: 'paging', body: { metadata: { name: `page-${i}` } } });
    const names: string[] = [];
    // remainingItemCount is only known for lists without selectors (as upstream).
    const first = await core.listNamespacedConfigMap({ namespace: 'paging', limit: 2 });
    names.push(...first.items.map((i) => i.metadata!.name!));
    expect(first.metadata?.remainingItemCount).toBe(3);
    let token = first.metadata?._continue;
    while (token) {
      const page = await core.listNamespacedConfigMap({ namespace: 'paging', limit: 2, _continue: token });
      expect(page.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
      names.push(...page.items.map((i) => i.metadata!.name!));
      token = page.metadata?._continue;
    }
    expect(names).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
  });

  it('watches: ADDED, MODIFIED and DELETED of one object arrive in order', async () => {
    const seen: string[] = [];
    const watch = new Watch(kc);
    const list = await core.listNamespacedConfigMap({ namespace: 'default' });
    const req = await watch.watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: list.metadata?.resourceVersion, fieldSelector: 'metadata.name=watched' },
      (type: string, obj: V1ConfigMap) => seen.push(`${type} ${obj.metadata?.name} ${obj.data?.v ?? ''}`.trim()),
      () => undefined,
    );
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'watched' }, data: { v: '1' } } });
    await core.replaceNamespacedConfigMap({ name: 'watched', namespace: 'default', body: { metadata: { name: 'watched' }, data: { v: '2' } } });
    await core.deleteNamespacedConfigMap({ name: 'watched', namespace: 'default' });
    await waitFor('three events', async () => seen.length >= 3, POLL);
    req.abort();
    expect(seen).toEqual(['ADDED watched 1', 'MODIFIED watched 2', 'DELETED watched 2']);
  });

  it('an informer lists, then follows adds, updates and deletes', async () => {
    const informer = makeInformer(kc, '/api/v1/namespaces/default/configmaps', () => core.listNamespacedConfigMap({ namespace: 'default', labelSelector: 'set=informed' }), 'set=informed');
    const events: string[] = [];
    informer.on('add', (o) => events.push(`add ${o.metadata?.name}`));
    informer.on('update', (o) => events.push(`update ${o.metadata?.name}`));
    informer.on('delete', (o) => events.push(`delete ${o.metadata?.name}`));
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'inf-0', labels: { set: 'informed' } } } });
    await informer.start();
    await waitFor('the listed object', async () => events.includes('add inf-0'), POLL);
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'inf-1', labels: { set: 'informed' } } } });
    await core.patchNamespacedConfigMap({ name: 'inf-1', namespace: 'default', body: { data: { k: 'v' } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    await core.deleteNamespacedConfigMap({ name: 'inf-0', namespace: 'default' });
    await waitFor('add, update, delete', async () => events.length >= 4, POLL);
    await informer.stop();
    expect(events).toEqual(['add inf-0', 'add inf-1', 'update inf-1', 'delete inf-0']);
    expect(informer.list().map((o) => o.metadata?.name)).toEqual(['inf-1']);
  });

  it('applies the three patch types: JSON patch, merge patch, strategic merge patch', async () => {
    await core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'patched', labels: { a: '1' } }, data: { x: '1' } } });
    await core.patchNamespacedConfigMap({ name: 'patched', namespace: 'default', body: [{ op: 'add', path: '/data/y', value: '2' }] }, setHeaderOptions('Content-Type', PatchStrategy.JsonPatch));
    await core.patchNamespacedConfigMap({ name: 'patched', namespace: 'default', body: { metadata: { labels: { a: null, b: '2' } } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    const got = await core.patchNamespacedConfigMap({ name: 'patched', namespace: 'default', body: { data: { z: '3' } } }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch));
    expect(got.data).toEqual({ x: '1', y: '2', z: '3' });
    expect(got.metadata?.labels).toEqual({ b: '2' });
    // A pod's containers merge by name under a strategic merge patch.
    const pod = await core.patchNamespacedPod(
      { name: 'box', namespace: 'default', body: { spec: { containers: [{ name: 'app', image: 'busybox:1.37' }] } } },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    expect(pod.spec?.containers.map((x) => `${x.name} ${x.image}`)).toEqual(['app busybox:1.37']);
    expect(pod.spec?.containers[0]?.command).toEqual(['sh', '-c', 'echo box up; sleep 100000']);
  });

  it('reads logs, and follows them', async () => {
    const out = sink();
    await new Log(kc).log('default', 'box', 'app', out, { follow: false });
    await new Promise((resolve) => out.on('finish', resolve));
    expect(out.text()).toBe('box up\n');
    const followed = sink();
    const controller = await new Log(kc).log('default', 'box', 'app', followed, { follow: true });
    await waitFor('the followed line', async () => followed.text() === 'box up\n', POLL);
    controller.abort();
  });

  it('execs a command: stdout, stderr and the exit status', async () => {
    const stdout = sink();
    const stderr = sink();
    const status = await new Promise<V1Status>((resolve) => {
      void new Exec(kc).exec('default', 'box', 'app', ['sh', '-c', 'echo out; echo err >&2; exit 3'], stdout, stderr, null, false, resolve);
    });
    expect(stdout.text()).toBe('out\n');
    expect(stderr.text()).toBe('err\n');
    expect(status).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode', details: { causes: [{ reason: 'ExitCode', message: '3' }] } });
  });

  it('attaches to a shell running as the container’s main process: a command typed on stdin is answered on stdout', async () => {
    const stdout = sink();
    const stdin = new PassThrough();
    const ws = await new Attach(kc).attach('default', 'talker', 'app', stdout, null, stdin, false);
    stdin.write('echo got hello\n');
    await waitFor('the echo', async () => stdout.text().includes('got hello\n'), POLL);
    ws.close();
  });

  it('copies a directory into a pod (Cp.cpToPod: a tar stream into `tar xf - -C DIR`)', async () => {
    const src = mkdtempSync(join(tmpdir(), 'js-cp-'));
    writeFileSync(join(src, 'hello.txt'), 'hello from the JS client\n');
    // cpToPod returns before the copy ends (the client does not wait for the exec): poll for the file.
    await new Cp(kc).cpToPod('default', 'box', 'app', src, '/tmp');
    await waitFor('the copied file', async () => (await c.kubectl(['exec', 'box', '--', 'cat', '/tmp/hello.txt'])).stdout === 'hello from the JS client\n', POLL);
    rmSync(src, { recursive: true, force: true });
  });
});
