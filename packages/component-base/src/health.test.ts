import { execFile } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestPki } from '@kubelab/pki/testing';
import { delegatingAuth } from './auth/delegating.js';
import { newMetricsRegistry, serveHealth, type HealthServer } from './health.js';
import { servingCertificate, type ServingCertificate } from './serving-cert.js';

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

describe('serveHealth with secure serving (kube-scheduler, kube-controller-manager)', () => {
  let pki: TestPki;
  let serving: ServingCertificate;
  beforeAll(async () => {
    pki = await TestPki.create();
    serving = await servingCertificate({ certDir: '', pairName: 'kube-scheduler', host: 'localhost', ipAddresses: ['127.0.0.1'] });
  });

  /** One HTTPS request trusting the port's own self-signed certificate. */
  function httpsGet(path: string, who: { cert?: string; key?: string; token?: string } = {}): Promise<[number, string, string]> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: server!.port,
          path,
          ca: serving.certPem,
          agent: false,
          ...(who.cert ? { cert: who.cert, key: who.key } : {}),
          headers: who.token ? { authorization: `Bearer ${who.token}` } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve([res.statusCode ?? 0, String(res.headers['content-type']), Buffer.concat(chunks).toString()]));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  const start = () =>
    serveHealth({
      host: '127.0.0.1',
      port: 0,
      metrics: newMetricsRegistry(),
      secure: { certificate: serving, clientCaPem: pki.caPem, auth: delegatingAuth({ clientCaPem: pki.caPem }) },
    });

  it('serves the health checks to anonymous and refuses /metrics with 403 in upstream words', async () => {
    server = await start();
    expect(await httpsGet('/healthz')).toEqual([200, 'text/plain; charset=utf-8', 'ok']);
    const [code, type, body] = await httpsGet('/metrics');
    expect([code, type]).toEqual([403, 'application/json']);
    expect(JSON.parse(body)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'forbidden: User "system:anonymous" cannot get path "/metrics"',
      reason: 'Forbidden',
      details: {},
      code: 403,
    });
  });

  it('serves /metrics to a client certificate of the client CA in system:masters, and 401 for one of another CA', async () => {
    server = await start();
    const admin = await pki.client({ commonName: 'kubernetes-super-admin', organizations: ['system:masters'] });
    const [code, , body] = await httpsGet('/metrics', admin);
    expect(code).toBe(200);
    expect(body).toMatch(/^process_cpu_user_seconds_total /m);
    const stranger = await (await TestPki.create()).client({ commonName: 'kubernetes-super-admin', organizations: ['system:masters'] });
    const [denied, , status] = await httpsGet('/healthz', stranger);
    expect([denied, JSON.parse(status).message]).toEqual([401, 'Unauthorized']);
  });

  it('speaks HTTPS only: a plain HTTP request gets no answer', async () => {
    server = await start();
    await expect(fetch(`http://127.0.0.1:${server.port}/healthz`)).rejects.toThrow();
  });
});

describe('newMetricsRegistry', () => {
  it('keeps an idle process asleep and its event loop lag near zero, and shows a blocked loop', async () => {
    // A process of its own (built module), so the count is of this registry's wake-ups only.
    const health = pathToFileURL(join(import.meta.dirname, '..', 'dist', 'health.js')).href;
    const script = `
      const { newMetricsRegistry } = await import(${JSON.stringify(health)});
      const reg = newMetricsRegistry();
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const p99 = async () => Number(/ ([0-9.e-]+)$/m.exec(await reg.getSingleMetricAsString('nodejs_eventloop_lag_p99_seconds'))[1]);
      const keepAlive = setInterval(() => {}, 60_000);
      await sleep(500);
      await reg.metrics();
      const before = process.resourceUsage().voluntaryContextSwitches;
      await sleep(2000);
      const switches = process.resourceUsage().voluntaryContextSwitches - before;
      const idle = await p99();
      await sleep(150); // a reset histogram takes its next firing as its start
      const until = performance.now() + 400;
      while (performance.now() < until);
      await sleep(250);
      const blocked = await p99();
      clearInterval(keepAlive);
      process.stdout.write(JSON.stringify({ switches, idle, blocked, text: await reg.metrics() }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    const { switches, idle, blocked, text } = JSON.parse(stdout) as { switches: number; idle: number; blocked: number; text: string };
    // prom-client's default (a 10 ms timer) makes ~200 in these 2 s; a 100 ms one ~20.
    expect(switches).toBeLessThan(40);
    // The delay past the timer's due time, not the sampling period (an idle loop once read 1.085 s).
    expect(idle).toBeLessThan(0.05);
    // A 400 ms block straddles at least three due times: the latest of them waited at least 300 ms.
    expect(blocked).toBeGreaterThan(0.25);
    expect(blocked).toBeLessThan(0.6);
    for (const stat of ['', '_min', '_max', '_mean', '_stddev', '_p50', '_p90', '_p99']) expect(text).toMatch(new RegExp(`^nodejs_eventloop_lag${stat}_seconds \\d`, 'm'));
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_space_size_used_bytes\{space="old"\} \d/m);
  });
});
