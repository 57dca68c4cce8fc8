import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS } from '@kubelab/api';
import { newMetricsRegistry } from '@kubelab/component-base';
import { TestPki } from '@kubelab/pki/testing';
import { startHttpServer } from './server.js';

let pki: TestPki;
let server: { port: number; close(): Promise<void> };
let ready = false;
let restCalls = 0;

beforeAll(async () => {
  pki = await TestPki.create();
  const serving = await pki.serving();
  server = await startHttpServer({
    host: '127.0.0.1',
    port: 0,
    tls: { certPem: serving.cert, keyPem: serving.key },
    authenticate: () => ({ user: ANONYMOUS }),
    livez: {},
    readyz: { 'informer-sync': () => ready },
    metrics: newMetricsRegistry(),
    ready: () => ready,
    rest: () => (_req, res) => {
      restCalls++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"kind":"PodList"}');
    },
  });
});

afterAll(async () => {
  await server.close();
});

/** One raw HTTP/1.1 exchange over TLS: what the server wrote until it closed (or answered a complete response). */
function exchange(head: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sock = connect({ host: '127.0.0.1', port: server.port, ca: pki.caPem, servername: 'localhost' }, () => {
      // The server may answer and close before it read everything (oversized headers): later write errors are expected.
      sock.write(head, () => undefined);
    });
    sock.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE' && e.code !== 'ECONNRESET') reject(e);
    });
    sock.on('data', (c: Buffer) => chunks.push(c));
    sock.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [top = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = top.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: headers['transfer-encoding'] === 'chunked' ? dechunk(body) : body });
    });
  });
}

function dechunk(body: string): string {
  let out = '';
  for (let rest = body; ;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 4 + size);
  }
}

const get = (path: string, extra = '') => exchange(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`);

describe('the secure port before anything else reads a request', () => {
  it('answers API requests 503 with Retry-After until ready, serves probes meanwhile, then hands over to the REST handler', async () => {
    ready = false;
    restCalls = 0;
    for (const path of ['/api/v1/namespaces/default/pods', '/apis', '/api/v1']) {
      const r = await get(path);
      expect([r.status, r.headers['retry-after'], JSON.parse(r.body)]).toEqual([
        503,
        '1',
        { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'storage is (re)initializing', reason: 'ServiceUnavailable', details: { retryAfterSeconds: 1 }, code: 503 },
      ]);
    }
    const probe = await get('/readyz');
    expect([probe.status, probe.body]).toEqual([500, '[+]ping ok\n[-]informer-sync failed: reason withheld\nreadyz check failed\n']);
    expect(restCalls).toBe(0);
    ready = true;
    const r = await get('/api/v1/namespaces/default/pods');
    expect([r.status, r.body]).toEqual([200, '{"kind":"PodList"}']);
    expect((await get('/readyz')).status).toBe(200);
  });

  it("refuses an invalid % escape in the path with Go's bare 400 before any handler", async () => {
    ready = true;
    restCalls = 0;
    const r = await get('/api/v1/namespaces/%zz/pods');
    expect([r.status, r.headers['content-type'], r.headers.connection, r.body]).toEqual([400, 'text/plain; charset=utf-8', 'close', '400 Bad Request']);
    expect(restCalls).toBe(0);
  });

  it("accepts headers up to upstream's 1 MiB and answers 431 with a Status body beyond", async () => {
    ready = true;
    const big = await get('/api/v1/pods', `X-Big: ${'a'.repeat(64 * 1024)}\r\n`);
    expect(big.status).toBe(200);
    const huge = await get('/api/v1/pods', `X-Huge: ${'a'.repeat(1100 * 1024)}\r\n`);
    expect([huge.status, huge.headers['content-type'], huge.headers.connection, JSON.parse(huge.body)]).toEqual([
      431,
      'application/json',
      'close',
      { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Request Header Fields Too Large', code: 431 },
    ]);
    // A request line Node cannot parse: Go's bare 400.
    const garbled = await exchange('GARBAGE\r\n\r\n');
    expect([garbled.status, garbled.body]).toEqual([400, '400 Bad Request']);
  });

  it('the 431 reaches a client still sending its oversized headers (the rest is read and dropped, as Go does, so no reset loses the answer)', async () => {
    const answer = await new Promise<{ firstLine: string; error: string }>((resolve) => {
      const chunks: Buffer[] = [];
      let error = '';
      const sock = connect({ host: '127.0.0.1', port: server.port, ca: pki.caPem, servername: 'localhost' }, () => {
        // More than the kernel's buffers hold: the server refuses while most of it is still on its way.
        sock.write(`GET /api/v1/pods HTTP/1.1\r\nHost: x\r\nX-Huge: ${'a'.repeat(4 << 20)}\r\n\r\n`, () => undefined);
      });
      // The client reads only after the server has answered and closed its side.
      sock.pause();
      setTimeout(() => sock.resume(), 100);
      sock.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
      sock.on('data', (c: Buffer) => chunks.push(c));
      sock.on('close', () => resolve({ firstLine: Buffer.concat(chunks).toString('utf8').split('\r\n')[0] ?? '', error }));
    });
    expect(answer).toEqual({ firstLine: 'HTTP/1.1 431 Request Header Fields Too Large', error: '' });
  });
});
