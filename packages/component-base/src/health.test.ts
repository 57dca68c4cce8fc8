import { afterEach, describe, expect, it } from 'vitest';
import { newMetricsRegistry, serveHealth, type HealthServer } from './health.js';

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function get(path: string, method = 'GET'): Promise<[number, string]> {
  const r = await fetch(`http://127.0.0.1:${server!.port}${path}`, { method });
  return [r.status, await r.text()];
}

describe('serveHealth', () => {
  it('answers the probes as upstream: ping always there, readyz adds its checks, one check by path', async () => {
    let synced = false;
    server = await serveHealth({
      host: '127.0.0.1',
      port: 0,
      livez: { 'cri-server': () => true },
      readyz: { 'sched-handler-sync': () => synced },
      metrics: newMetricsRegistry(),
      routes: { '/rules': (_req, res) => void res.end('rules') },
    });
    expect(await get('/livez')).toEqual([200, 'ok']);
    expect(await get('/healthz/')).toEqual([200, 'ok']);
    expect(await get('/livez?verbose')).toEqual([200, '[+]ping ok\n[+]cri-server ok\nlivez check passed\n']);
    expect(await get('/readyz')).toEqual([500, '[+]ping ok\n[+]cri-server ok\n[-]sched-handler-sync failed: reason withheld\nreadyz check failed\n']);
    synced = true;
    expect(await get('/readyz/sched-handler-sync?verbose')).toEqual([200, '[+]sched-handler-sync ok\nreadyz check passed\n']);
    expect(await get('/livez/etcd')).toEqual([404, '404 page not found\n']);
    expect(await get('/livez', 'POST')).toEqual([404, '404 page not found\n']);
    expect(await get('/rules')).toEqual([200, 'rules']);
    const [status, body] = await get('/metrics');
    expect(status).toBe(200);
    expect(body).toContain('process_cpu_seconds_total');
  });
});
