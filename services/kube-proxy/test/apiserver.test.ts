// kube-proxy against the real apiserver (real nats-server, gRPC on loopback),
// render mode: a Service and an EndpointSlice created through the API show
// up in /rules within the min sync period, and a pod turning unready takes
// its DNAT target out again. Each sync's record reaches NATS (kubelab.proxy.<node>).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiserver, type RunningApiserver } from '@kubelab/apiserver';
import { createTestPki } from '@kubelab/apiserver/testing';
import { createClientset, type Clientset } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { requireTool, startNatsServer, waitFor, type NatsServerHandle } from '@kubelab/testing';
import { defaultKubeProxyConfiguration } from '../src/config.js';
import { makeService, makeSlice } from '../src/testing/fixtures.js';
import { get } from './harness.js';
import { startKubeProxy, type KubeProxyHandle } from '../src/server.js';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { decodeProxySyncRecord, type ProxySyncRecord } from '@kubelab/proto/proxy-record';

const quiet = (component: string) => createLogger({ component, format: 'json', write: () => undefined });

describe.runIf(requireTool('nats-server'))('kube-proxy with the apiserver', () => {
  let nats: NatsServerHandle;
  let api: RunningApiserver;
  let kp: KubeProxyHandle;
  let cs: Clientset;
  let reader: NatsConnection;
  const records: { subject: string; rec: ProxySyncRecord | undefined }[] = [];

  beforeAll(async () => {
    nats = await startNatsServer();
    reader = await connect({ servers: nats.url });
    reader.subscribe('kubelab.proxy.>', { callback: (_err, msg) => void records.push({ subject: msg.subject, rec: decodeProxySyncRecord(msg.string()) }) });
    const pki = await createTestPki();
    api = await startApiserver({ natsUrl: nats.url, bindAddress: '127.0.0.1', advertiseAddress: '127.0.0.1', securePort: 0, grpcPort: 0, logger: quiet('apiserver'), tls: pki.tls });
    await api.ready;
    cs = createClientset({ address: `127.0.0.1:${api.grpcPort}`, component: 'kube-proxy-test', tls: pki.admin });
    kp = await startKubeProxy({
      nodeName: 'node-1',
      apiserverAddress: `127.0.0.1:${api.grpcPort}`,
      apiserverTls: await pki.clientTls({ commonName: 'system:kube-proxy' }),
      apply: 'never',
      natsUrl: nats.url,
      logger: quiet('kube-proxy'),
      config: { ...defaultKubeProxyConfiguration(), healthzBindAddress: '127.0.0.1:0', metricsBindAddress: '127.0.0.1:0' },
    });
  }, 30_000);

  afterAll(async () => {
    await kp?.stop();
    await reader?.close();
    cs?.close();
    await api?.stop();
    await nats?.dispose();
  });

  // The rules once they (do not) contain needle, and how long that took.
  const rulesWith = async (needle: string, absent = false) => {
    const start = Date.now();
    const value = await waitFor(
      `${absent ? 'no ' : ''}${needle} in /rules`,
      async () => {
        const r = await get(kp.healthzPort, '/rules');
        return r.status === 200 && r.body.includes(needle) !== absent ? r.body : undefined;
      },
      { timeoutMs: 5000 },
    );
    return { value, elapsedMs: Date.now() - start };
  };

  it('renders the kubernetes service the apiserver bootstraps', async () => {
    const r = await rulesWith('"default/kubernetes:https cluster IP"');
    expect(r.value).toMatch(/-A KUBE-SERVICES -d 10\.96\.0\.1\/32 -p tcp -m comment --comment "default\/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-NPX46M4PTMTKRN6Y/);
  });

  it('publishes its configuration as ConfigMap kube-system/kube-proxy (as kubeadm does)', async () => {
    const cm = await waitFor('ConfigMap kube-system/kube-proxy', () => cs.core.configMaps('kube-system').get('kube-proxy'), { timeoutMs: 5000 });
    const conf = cm.data?.['config.conf'] ?? '';
    expect(conf).toContain('kind: KubeProxyConfiguration');
    expect(conf).toMatch(/^mode: iptables$/m);
  });

  it('follows a new service and its endpoints, then drops an endpoint that turns unready', async () => {
    const svc = await cs.core.services('default').create(makeService('default', 'web', '10.96.0.50', [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'http' }]));
    expect(svc.spec?.clusterIP).toBe('10.96.0.50');
    await rulesWith('"default/web:http has no endpoints"');
    const slice = await cs.discovery.endpointSlices('default').create(
      makeSlice(
        'default',
        'web',
        [{ name: 'http', port: 8080 }],
        [
          { ip: '10.244.1.2', ready: true },
          { ip: '10.244.2.3', ready: true },
        ],
        'web-x1',
      ),
    );
    const both = await rulesWith('--to-destination 10.244.2.3:8080');
    expect(both.elapsedMs).toBeLessThan(2500);
    expect(both.value).toContain('--to-destination 10.244.1.2:8080');
    expect(both.value).toContain('-A KUBE-SERVICES -d 10.96.0.50/32 -p tcp -m comment --comment "default/web:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-CDGGSHYLG3RE2FKL');

    slice.endpoints[1]!.conditions = { ready: false, serving: false, terminating: false };
    await cs.discovery.endpointSlices('default').update(slice);
    const one = await rulesWith('--to-destination 10.244.2.3:8080', true);
    expect(one.elapsedMs).toBeLessThan(2500);
    expect(one.value).toContain('--to-destination 10.244.1.2:8080');
    expect(one.value).not.toContain('--probability');
  });

  it('publishes a record of each sync on kubelab.proxy.<node>, naming the change that queued it', async () => {
    await cs.core.services('default').create(makeService('default', 'db', '10.96.0.60', [{ name: 'pg', protocol: 'TCP', port: 5432, targetPort: 'pg' }]));
    await cs.discovery.endpointSlices('default').create(makeSlice('default', 'db', [{ name: 'pg', port: 5432 }], [{ ip: '10.244.1.9', ready: true }], 'db-x1'));
    // The runner coalesces changes within --iptables-min-sync-period: the sync that took the endpoint in names the Service or the slice.
    const seen = await waitFor(
      'a sync record with default/db and its endpoint',
      async () => records.find((r) => ['Service default/db', 'EndpointSlice default/db-x1'].includes(r.rec?.trigger ?? '') && r.rec!.endpoints >= 2),
      { timeoutMs: 4000 },
    );
    expect(seen.subject).toBe('kubelab.proxy.node-1');
    expect(seen.rec).toEqual(expect.objectContaining({ node: 'node-1', mode: 'iptables', dataPath: 'render', fullSync: false }));
    expect(seen.rec!.services).toBeGreaterThanOrEqual(2);
    expect(seen.rec!.rules).toBeGreaterThan(0);
    expect(seen.rec!.error).toBeUndefined();
    // The first sync, once both informers synced, rewrote everything.
    expect(records[0]!.rec).toEqual(expect.objectContaining({ node: 'node-1', fullSync: true }));
  }, 10_000);
});
