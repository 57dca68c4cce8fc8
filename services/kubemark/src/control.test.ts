import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseNodeList, serveControl } from './control.js';
import type { HollowNodeState } from './worker.js';

function call(socketPath: string, method: string, path: string, body?: string): Promise<{ code: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method, path }, (res) => {
      let text = '';
      res.on('data', (d) => (text += String(d)));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('parseNodeList', () => {
  it.each([
    ['{"nodes":["node-1","node-4"]}', ['node-1', 'node-4']],
    ['{"nodes":[]}', []],
  ])('%s', (body, want) => expect(parseNodeList(body)).toEqual(want));
  it.each([
    ['nodes', 'the body is not JSON'],
    ['{"nodes":"node-1"}', 'the body must be {"nodes": ["<node name>", ...]}'],
    ['{"nodes":[1]}', 'the body must be {"nodes": ["<node name>", ...]}'],
    ['null', 'the body must be {"nodes": ["<node name>", ...]}'],
  ])('refuses %s', (body, msg) => expect(() => parseNodeList(body)).toThrow(msg));
});

describe("a worker's control socket", () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubemark-control-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lists the nodes, powers the named ones, refuses bad requests', async () => {
    const state: HollowNodeState[] = [
      { name: 'node-1', zone: 'zone-a', state: 'running' },
      { name: 'node-2', zone: 'zone-b', state: 'running' },
    ];
    const calls: string[] = [];
    const sock = join(dir, 'hollow-node-1.sock');
    const server = await serveControl(sock, {
      list: () => state,
      power: async (action, names) => {
        calls.push(`${action} ${names.join(',')}`);
        return names.filter((n) => n === 'node-1');
      },
    });
    try {
      expect(await call(sock, 'GET', '/nodes')).toEqual({ code: 200, body: { nodes: state } });
      expect(await call(sock, 'POST', '/stop', '{"nodes":["node-1","node-9"]}')).toEqual({ code: 200, body: { nodes: ['node-1'] } });
      expect(await call(sock, 'POST', '/start', '{"nodes":["node-1"]}')).toEqual({ code: 200, body: { nodes: ['node-1'] } });
      expect(await call(sock, 'POST', '/stop', 'x')).toEqual({ code: 400, body: { message: 'the body is not JSON' } });
      expect(await call(sock, 'DELETE', '/nodes')).toEqual({ code: 404, body: { message: 'no such request: DELETE /nodes' } });
      expect(calls).toEqual(['stop node-1,node-9', 'start node-1']);
    } finally {
      server.close();
    }
  });
});
