import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGetProbe } from './http.js';

describe('httpGetProbe', () => {
  let server: Server;
  let port = 0;
  /** A port where nothing listens: the server's, once it closed. */
  let closedPort = 0;

  beforeAll(async () => {
    const gone = createServer();
    await new Promise<void>((r) => gone.listen(0, '127.0.0.1', r));
    closedPort = (gone.address() as AddressInfo).port;
    await new Promise((r) => gone.close(r));
    server = createServer((req, res) => {
      if (req.url === '/slow') return; // never answers
      const code = Number(req.url!.slice(1)) || 200;
      res.writeHead(code, code === 302 ? { Location: '/' } : {});
      res.end(`answered ${code} to ${req.headers['user-agent'] ?? ''}`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it.each([
    { path: '/200', want: { result: 'Success', output: 'answered 200 to kube-probe/1.32' } },
    { path: '/302', want: { result: 'Success', output: 'answered 302 to kube-probe/1.32' } },
    { path: '/500', want: { result: 'Failure', output: 'HTTP probe failed with statuscode: 500' } },
    { path: '/404', want: { result: 'Failure', output: 'HTTP probe failed with statuscode: 404' } },
  ])('GET $path → $want.result', async ({ path, want }) => {
    expect(await httpGetProbe(new URL(`http://127.0.0.1:${port}${path}`), { 'User-Agent': 'kube-probe/1.32' }, 5000)).toEqual(want);
  });

  it("a refused connection and a timeout read as Go's client words them", async () => {
    const refused = `http://127.0.0.1:${closedPort}/healthz`;
    expect(await httpGetProbe(new URL(refused), {}, 5000)).toEqual({ result: 'Failure', output: `Get "${refused}": dial tcp 127.0.0.1:${closedPort}: connect: connection refused` });
    const slow = `http://127.0.0.1:${port}/slow`;
    expect(await httpGetProbe(new URL(slow), {}, 200)).toEqual({ result: 'Failure', output: `Get "${slow}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)` });
  });
});
