// startKubeProxy in-process against the fake clientset (render mode): the
// informers feed the proxier, /rules follows changes within the min sync
// period, and healthz/metrics answer as upstream.

import { afterEach, describe, expect, it } from 'vitest';
import { createFakeClientset } from '@kubelab/client/testing';
import { GVR } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { waitFor } from '@kubelab/testing';
import { makeService, makeSlice } from '../src/testing/fixtures.js';
import { get } from './harness.js';
import { startKubeProxy, type KubeProxyHandle } from '../src/server.js';
import { defaultKubeProxyConfiguration, type ProxyMode } from '../src/config.js';

const logs: string[] = [];
const logger = createLogger({ component: 'kube-proxy', node: 'node-1', format: 'json', write: (l) => logs.push(l) });
let kp: KubeProxyHandle | undefined;

afterEach(async () => {
  await kp?.stop();
  kp = undefined;
  logs.length = 0;
});

async function start(mode: ProxyMode, fake = createFakeClientset()) {
  const d = defaultKubeProxyConfiguration();
  kp = await startKubeProxy({
    nodeName: 'node-1',
    clientset: fake.clientset,
    apply: 'never',
    logger,
    config: { ...d, mode, healthzBindAddress: '127.0.0.1:0', metricsBindAddress: '127.0.0.1:0' },
  });
  return { kp, fake };
}

describe('startKubeProxy (render mode)', () => {
  it('serves the iptables rules on /rules and follows a new service and its endpoints within the min sync period', async () => {
    const fake = createFakeClientset();
    fake.seed(GVR.services, makeService('default', 'kubernetes', '10.96.0.1', [{ name: 'https', protocol: 'TCP', port: 443 }]));
    fake.seed(GVR.endpointSlices, makeSlice('default', 'kubernetes', [{ name: 'https', port: 6443 }], [{ ip: '172.18.0.2' }]));
    const { kp } = await start('iptables', fake);
    const first = await waitFor('first sync', async () => ((await get(kp.healthzPort, '/rules')).status === 200 ? await get(kp.healthzPort, '/rules') : undefined), { timeoutMs: 5000 });
    expect(first.headers.get('x-kubelab-rules-source')).toBe('rendered');
    expect(first.body).toContain('-A KUBE-SERVICES -d 10.96.0.1/32 -p tcp -m comment --comment "default/kubernetes:https cluster IP" -m tcp --dport 443 -j KUBE-SVC-');

    await fake.clientset.core.services('default').create(makeService('default', 'web', '10.96.0.10', [{ name: 'http', protocol: 'TCP', port: 80 }]));
    const rejected = await waitFor(
      'REJECT for web',
      async () => {
        const r = await get(kp.metricsPort, '/rules');
        return r.body.includes('"default/web:http has no endpoints"') ? r.body : undefined;
      },
      { timeoutMs: 3000 },
    );
    expect(rejected).toContain('-A KUBE-SERVICES -d 10.96.0.10/32 -p tcp -m comment --comment "default/web:http has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable');

    await fake.clientset.discovery.endpointSlices('default').create(makeSlice('default', 'web', [{ name: 'http', port: 8080 }], [{ ip: '10.244.1.2' }, { ip: '10.244.2.3' }]));
    const created = Date.now();
    const dnat = await waitFor(
      'DNAT to the endpoints',
      async () => {
        const r = await get(kp.healthzPort, '/rules');
        return r.body.includes('--to-destination 10.244.2.3:8080') ? r.body : undefined;
      },
      { timeoutMs: 3000 },
    );
    // Bounded by the 1 s min sync period plus scheduling slack.
    expect(Date.now() - created).toBeLessThan(2000);
    expect(dnat).toContain('-m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-');
    expect(dnat).not.toContain('has no endpoints');
    expect(logs.some((l) => l.includes('Render mode: iptables rules are computed and served on /rules but not applied') && l.includes('apply disabled'))).toBe(true);
  });

  it('answers /healthz with upstream JSON, /proxyMode, and metrics with rule counts', async () => {
    const fake = createFakeClientset();
    fake.seed(GVR.services, makeService('default', 'web', '10.96.0.10', [{ name: 'http', protocol: 'TCP', port: 80 }]));
    const { kp } = await start('iptables', fake);
    await waitFor('first sync', async () => ((await get(kp.healthzPort, '/rules')).status === 200 ? true : undefined), { timeoutMs: 5000 });
    const hz = await get(kp.healthzPort, '/healthz');
    expect(hz.status).toBe(200);
    expect(hz.headers.get('content-type')).toBe('application/json');
    expect(hz.body).toMatch(/^\{"lastUpdated": "\d{4}-\d\d-\d\d [\d:.]+ \+0000 UTC m=\+[\d.]+","currentTime": "[^"]+", "nodeEligible": true\}$/);
    expect((await get(kp.metricsPort, '/proxyMode')).body).toBe('iptables');
    const m = (await get(kp.metricsPort, '/metrics')).body;
    expect(m).toContain('kubeproxy_sync_proxy_rules_duration_seconds_bucket{le="0.001"}');
    expect(m).toMatch(/kubeproxy_sync_proxy_rules_last_timestamp_seconds \d+/);
    expect(m).toContain('kubeproxy_sync_proxy_rules_iptables_total{table="filter"} 5');
    expect(m).toContain('kubeproxy_sync_proxy_rules_iptables_total{table="nat"} 5');
    expect(m).toContain('kubelab_kube_proxy_rules{mode="iptables"} 10');
  });

  it.each([
    ['nftables', 'table ip kube-proxy {', 'elements = { 10.96.0.10 . tcp . 80 comment "default/web:http" : goto reject-chain }'],
    ['ipvs', 'IP Virtual Server version 1.2.1 (size=4096)', 'TCP  10.96.0.10:80 rr'],
  ] as const)('serves %s rules in their native form', async (mode, head, line) => {
    const fake = createFakeClientset();
    fake.seed(GVR.services, makeService('default', 'web', '10.96.0.10', [{ name: 'http', protocol: 'TCP', port: 80 }]));
    const { kp } = await start(mode, fake);
    const r = await waitFor(
      'first sync',
      async () => {
        const x = await get(kp.healthzPort, '/rules');
        return x.status === 200 ? x : undefined;
      },
      { timeoutMs: 5000 },
    );
    expect(r.headers.get('x-kubelab-proxy-mode')).toBe(mode);
    expect(r.body.startsWith(head)).toBe(true);
    expect(r.body).toContain(line);
  });
});
