// Volumes and envFrom end to end on one node (real apiserver, mock
// containerd over CRI, kubelet): what the container sees, where the files
// live under --root-dir, and the events a missing ConfigMap produces.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { httpsRequest } from '@kubelab/apiserver/testing';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL, pod, podEvents, startCluster, type Cluster } from './harness.js';

const get = (c: Cluster, name: string) => c.cs.core.pods('default').get(name);
const logs = async (c: Cluster, name: string) => (await c.kubeletGet(`/containerLogs/default/${name}/app`)).text;

describe.skipIf(!requireTool('nats-server'))('kubelet volumes and envFrom', () => {
  let c: Cluster;
  beforeAll(async () => {
    // A short resync so ConfigMap changes reach running pods quickly (upstream: --sync-frequency, 1 min).
    c = await startCluster({ kubelet: { syncFrequencyMs: 300 } });
  }, 30_000);
  afterAll(async () => {
    await c?.dispose();
  });

  it('mounts a ConfigMap and fills env from it: the container prints both', async () => {
    await c.cs.core.configMaps('default').create({ metadata: { name: 'app-config' }, data: { greeting: 'hello from a volume', GREETING: 'hello from envFrom' } });
    await c.cs.core.secrets('default').create({ metadata: { name: 'app-secret' }, data: { password: Buffer.from('s3cr3t').toString('base64') } });
    const created = await c.cs.core.pods('default').create(
      pod('cfgdemo', {
        containers: [
          {
            name: 'app',
            image: 'busybox:1.36',
            command: ['sh', '-c', 'cat /etc/config/greeting; echo; echo $GREETING; echo $APP_MODE; cat /etc/secret/password; echo; sleep 3600'],
            envFrom: [{ configMapRef: { name: 'app-config' } }],
            env: [{ name: 'APP_MODE', value: 'demo' }],
            volumeMounts: [
              { name: 'config', mountPath: '/etc/config' },
              { name: 'config', mountPath: '/etc/greeting-once', subPath: 'greeting' },
              { name: 'secret', mountPath: '/etc/secret', readOnly: true },
            ],
          },
        ],
        terminationGracePeriodSeconds: 1,
        volumes: [
          { name: 'config', configMap: { name: 'app-config' } },
          { name: 'secret', secret: { secretName: 'app-secret' } },
        ],
      }),
    );
    const out = await waitFor(
      "'s3cr3t' in cfgdemo's log",
      async () => {
        const t = await logs(c, 'cfgdemo');
        return t.includes('s3cr3t') ? t : undefined;
      },
      POLL,
    );
    expect(out).toBe('hello from a volume\nhello from envFrom\ndemo\ns3cr3t\n');
    // The files sit where upstream puts them.
    const dir = join(c.dir, 'kubelet', 'pods', created.metadata.uid!, 'volumes');
    expect(readFileSync(join(dir, 'kubernetes.io~configmap', 'config', 'greeting'), 'utf8')).toBe('hello from a volume');
    expect(readFileSync(join(dir, 'kubernetes.io~secret', 'secret', 'password'), 'utf8')).toBe('s3cr3t');

    // The kubelet follows app-config through a watch (upstream's default Watch strategy): the resyncs
    // every 300 ms set the volume up again from that cache, with no GET of the ConfigMap.
    const metric = async (re: RegExp) => {
      const text = (await httpsRequest(c.apiserver.restPort, '/metrics', c.pki.admin.caPem, { cert: c.pki.admin.certPem, key: c.pki.admin.keyPem })).body;
      return Number(re.exec(text)?.[1] ?? 0);
    };
    const configMapGets = /^apiserver_request_total\{verb="GET",dry_run="",group="",version="v1",resource="configmaps",[^}]*code="200"\} (\d+)$/m;
    const before = await metric(configMapGets);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await metric(configMapGets)).toBe(before);
    expect(await metric(/^apiserver_longrunning_requests\{verb="WATCH",group="",version="v1",resource="configmaps",[^}]*\} (\d+)$/m)).toBeGreaterThanOrEqual(1);

    // An update reaches the volume's files on the next sync, and the running container sees it,
    // except through the subPath mount, which keeps what it had (as upstream).
    const cm = await c.cs.core.configMaps('default').get('app-config');
    await c.cs.core.configMaps('default').update({ ...cm, data: { ...cm.data, greeting: 'updated greeting' } });
    await waitFor('the updated greeting in the volume directory', () => readFileSync(join(dir, 'kubernetes.io~configmap', 'config', 'greeting'), 'utf8') === 'updated greeting', POLL);
    const id = (await get(c, 'cfgdemo')).status!.containerStatuses![0]!.containerID!.replace('containerd://', '');
    const cat = async (path: string) => (await c.kubelet.kubelet.rt.execSync(id, ['cat', path], 5)).stdout.toString();
    expect(await waitFor('the updated greeting in the container', async () => ((await cat('/etc/config/greeting')) === 'updated greeting' ? 'updated greeting' : undefined), POLL)).toBe(
      'updated greeting',
    );
    expect(await cat('/etc/greeting-once')).toBe('hello from a volume');

    // Deleting the pod removes its directory once its containers are gone.
    await c.cs.core.pods('default').delete('cfgdemo');
    await waitFor("cfgdemo's pod directory removed", () => !existsSync(join(c.dir, 'kubelet', 'pods', created.metadata.uid!)), { ...POLL, timeoutMs: 15_000 });
  }, 30_000);

  it('a missing envFrom ConfigMap keeps the container from starting: CreateContainerConfigError', async () => {
    await c.cs.core
      .pods('default')
      .create(pod('noenv', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3600'], envFrom: [{ configMapRef: { name: 'missing-env' } }] }] }));
    const p = await waitFor(
      'noenv in CreateContainerConfigError',
      async () => {
        const x = await get(c, 'noenv');
        return x.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CreateContainerConfigError' ? x : undefined;
      },
      POLL,
    );
    expect(p.status?.phase).toBe('Pending');
    expect(p.status?.containerStatuses?.[0]?.state?.waiting).toEqual({ reason: 'CreateContainerConfigError', message: 'configmap "missing-env" not found' });
    const events = await waitFor(
      'a Failed event for noenv',
      async () => {
        const e = await podEvents(c.cs, 'noenv');
        return e.some((x) => x.startsWith('Failed')) ? e : undefined;
      },
      POLL,
    );
    expect(events).toContain('Failed: Error: configmap "missing-env" not found');
  }, 20_000);

  it('a missing ConfigMap volume is FailedMount, the pod stays ContainerCreating, and starts once it exists', async () => {
    await c.cs.core.pods('default').create(
      pod('nomount', {
        containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'cat /etc/config/greeting; echo; sleep 3600'], volumeMounts: [{ name: 'cfg', mountPath: '/etc/config' }] }],
        volumes: [{ name: 'cfg', configMap: { name: 'late-config' } }],
      }),
    );
    const events = await waitFor(
      'a FailedMount event for nomount',
      async () => {
        const e = await podEvents(c.cs, 'nomount');
        return e.some((x) => x.startsWith('FailedMount')) ? e : undefined;
      },
      POLL,
    );
    expect(events).toContain('FailedMount: MountVolume.SetUp failed for volume "cfg" : configmap "late-config" not found');
    const waiting = await waitFor('nomount waiting', async () => (await get(c, 'nomount')).status?.containerStatuses?.[0]?.state?.waiting, POLL);
    expect(waiting).toEqual({ reason: 'ContainerCreating' });
    // No sandbox or container was made for it meanwhile.
    expect(events.some((e) => e.startsWith('Pulling') || e.startsWith('Created'))).toBe(false);

    await c.cs.core.configMaps('default').create({ metadata: { name: 'late-config' }, data: { greeting: 'finally' } });
    const out = await waitFor(
      "'finally' in nomount's log",
      async () => {
        const t = await logs(c, 'nomount');
        return t.includes('finally') ? t : undefined;
      },
      { ...POLL, timeoutMs: 15_000 },
    );
    expect(out).toBe('finally\n');
  }, 30_000);
});
