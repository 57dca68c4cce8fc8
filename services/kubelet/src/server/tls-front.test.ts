// One TLS server for many kubelets (hollow nodes): each request reaches the kubelet whose address it came to.

import { Agent, request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertKey } from '@kubelab/pki';
import { SharedTlsFront, type KubeletListener } from './tls-front.js';

const ADDRESSES = ['127.0.0.2', '127.0.0.3'];
let ca = '';
let front: SharedTlsFront;
const listeners: KubeletListener[] = [];

function get(host: string, port: number, path: string, headers: Record<string, string> = {}, agent: Agent | false = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host, port, path, ca, headers, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: String(res.headers['x-kubelet']) });
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  const pair = await selfSignedCertKey('hollow-node-1', { ipAddresses: ADDRESSES });
  ca = pair.cert;
  front = new SharedTlsFront({ certPem: pair.cert, keyPem: pair.key });
  for (const host of ADDRESSES) {
    const port = listeners[0]?.port ?? 0;
    listeners.push(
      await front.listen(host, port, async (req, res) => {
        // An upgrade (exec) is answered on the raw socket, with the same routing.
        if (req.headers.upgrade) res.writeHead(101, { connection: 'Upgrade', upgrade: 'websocket', 'x-kubelet': host });
        else res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(req.headers.upgrade ? undefined : `${host} ${req.url}`);
      }),
    );
  }
});

afterAll(async () => {
  for (const l of listeners) await l.close();
});

describe('SharedTlsFront', () => {
  it('routes each request to the kubelet of the address it came to, on one port', async () => {
    expect(listeners[0]!.port).toBe(listeners[1]!.port);
    const port = listeners[0]!.port;
    expect(await get('127.0.0.2', port, '/pods')).toEqual({ status: 200, body: '127.0.0.2 /pods' });
    expect(await get('127.0.0.3', port, '/healthz')).toEqual({ status: 200, body: '127.0.0.3 /healthz' });
  });

  it.each(ADDRESSES)('routes upgrade requests (exec streams) the same way: %s', async (host) => {
    const port = listeners[0]!.port;
    expect(await get(host, port, '/exec/default/p/c', { connection: 'Upgrade', upgrade: 'websocket' })).toEqual({ status: 101, body: host });
  });

  it('routes by the address the connection came to, not by the Host header', async () => {
    expect(await get('127.0.0.2', listeners[0]!.port, '/pods', { host: `127.0.0.3:${listeners[0]!.port}` })).toEqual({ status: 200, body: '127.0.0.2 /pods' });
  });

  it.each(['0.0.0.0', '::'])('refuses a wildcard address (%s), which would not tell the kubelets apart', async (host) => {
    await expect(front.listen(host, 0, () => Promise.resolve())).rejects.toThrow(/own address/);
  });

  it("stops one kubelet, its open connections too, without touching the other's", async () => {
    const port = listeners[0]!.port;
    const agent = new Agent({ keepAlive: true, ca });
    await get('127.0.0.2', port, '/pods', {}, agent);
    await get('127.0.0.3', port, '/pods', {}, agent);
    const open = () => Object.values(agent.sockets).flat().length + Object.values(agent.freeSockets).flat().length;
    expect(open()).toBe(2);
    await listeners[0]!.close();
    await listeners[0]!.close(); // a second close is the first's
    await new Promise((r) => setTimeout(r, 50));
    expect(Object.keys(agent.freeSockets)).toEqual([expect.stringContaining('127.0.0.3')]);
    await expect(get('127.0.0.2', port, '/pods')).rejects.toThrow(/ECONNREFUSED/);
    expect(await get('127.0.0.3', port, '/pods', {}, agent)).toEqual({ status: 200, body: '127.0.0.3 /pods' });
    agent.destroy();
    listeners.shift();
  });
});
