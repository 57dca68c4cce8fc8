import { createServer } from 'node:net';
import { createLogger } from '@kubelab/component-base';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSnapshot } from './proxy/changetracker.js';
import { healthCheckNodePorts, localReadyEndpoints, serviceHealthAnswer, ServiceHealthServer } from './service-health.js';
import { localScenario } from './testing/fixtures.js';

const snapOn = (node: string) => {
  const s = localScenario();
  return buildSnapshot(s.services, s.slices, node);
};

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('service health check decisions', () => {
  it('only the LoadBalancer with externalTrafficPolicy Local has a health check port', () => {
    expect(healthCheckNodePorts(snapOn('node-1'))).toEqual(new Map([['default/etp-remote', 32000]]));
  });

  it('counts the ready endpoints on this node per Service', () => {
    expect(localReadyEndpoints(snapOn('node-1')).get('default/etp-remote')).toBe(0);
    expect(localReadyEndpoints(snapOn('node-2')).get('default/etp-remote')).toBe(1);
    expect(localReadyEndpoints(snapOn('node-1')).get('default/etp')).toBe(1);
  });

  it("answers with upstream's indented JSON and headers: 200 with local endpoints, 503 without or with an unhealthy proxy", () => {
    const ok = serviceHealthAnswer('default/web', 2, true);
    expect(ok.status).toBe(200);
    expect(ok.headers).toEqual({ 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', 'X-Load-Balancing-Endpoint-Weight': '2' });
    expect(ok.body).toBe('{\n\t"service": {\n\t\t"namespace": "default",\n\t\t"name": "web"\n\t},\n\t"localEndpoints": 2,\n\t"serviceProxyHealthy": true\n}');
    expect(JSON.parse(ok.body)).toEqual({ service: { namespace: 'default', name: 'web' }, localEndpoints: 2, serviceProxyHealthy: true });
    expect(serviceHealthAnswer('default/web', 0, true).status).toBe(503);
    expect(serviceHealthAnswer('default/web', 2, false).status).toBe(503);
  });
});

describe('ServiceHealthServer', () => {
  let server: ServiceHealthServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('serves each health check port over HTTP and closes it when the Service no longer has one', async () => {
    const port = await freePort();
    server = new ServiceHealthServer({ host: '127.0.0.1', proxyHealthy: () => true, logger: createLogger({ component: 'test', level: 'error' }) });
    server.syncServices(new Map([['default/etp-remote', port]]));
    server.syncEndpoints(new Map([['default/etp-remote', 0]]));
    await new Promise((r) => setTimeout(r, 50));
    const none = await fetch(`http://127.0.0.1:${port}/`);
    expect(none.status).toBe(503);
    expect(none.headers.get('x-load-balancing-endpoint-weight')).toBe('0');
    expect(await none.json()).toEqual({ service: { namespace: 'default', name: 'etp-remote' }, localEndpoints: 0, serviceProxyHealthy: true });

    server.syncEndpoints(localReadyEndpoints(snapOn('node-2')));
    const one = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(one.status).toBe(200);
    expect(((await one.json()) as { localEndpoints: number }).localEndpoints).toBe(1);

    server.syncServices(new Map());
    expect(server.ports().size).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });
});

describe('load-balancer ingress addresses kube-proxy captures', () => {
  it('VIP (or unset) ipMode addresses are programmed, Proxy ones are left to the load balancer', () => {
    const s = localScenario();
    const lb = s.services.find((x) => x.metadata.name === 'etp-remote')!;
    lb.status = { loadBalancer: { ingress: [{ ip: '192.0.2.10', ipMode: 'VIP' }, { ip: '192.0.2.11', ipMode: 'Proxy' }, { ip: '192.0.2.12' }] } };
    const snap = buildSnapshot(s.services, s.slices, 'node-1');
    expect(snap.services.find((x) => x.service === 'etp-remote')!.loadBalancerIPs).toEqual(['192.0.2.10', '192.0.2.12']);
  });
});
