// The shim RPC client's deadlines: a call past its deadline fails with
// ttrpc's text and leaves nothing pending; its late answer is dropped.
import { createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dial, readLines, RpcClient, send, type Request } from './rpc.js';

let server: Server | undefined;
let dir: string | undefined;
afterEach(() => {
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A shim end that answers each request after `delayMs[method]` (never when absent). */
async function shim(delayMs: Record<string, number>): Promise<RpcClient> {
  dir = mkdtempSync(join(tmpdir(), 'kubelab-rpc-'));
  const path = join(dir, 's.sock');
  server = createServer((sock: Socket) =>
    readLines(sock, (m) => {
      const r = m as Request;
      const d = delayMs[r.method];
      if (d !== undefined) setTimeout(() => send(sock, { id: r.id, result: r.method }), d);
    }),
  );
  await new Promise<void>((r) => server!.listen(path, r));
  return new RpcClient(
    await dial(path),
    () => undefined,
    () => undefined,
  );
}

describe('RpcClient deadlines', () => {
  it('fails a call its peer does not answer in time, and still answers the next one', async () => {
    const c = await shim({ Create: 200, State: 0 });
    await expect(c.call('Create', { id: 'a' }, 50)).rejects.toThrow('Create: context deadline exceeded');
    // The late answer of the timed-out call arrives and is dropped; later calls are unaffected.
    await new Promise((r) => setTimeout(r, 250));
    await expect(c.call('State', {}, 1_000)).resolves.toBe('State');
    c.socket.destroy();
  });

  it('answers within the deadline as without one; no deadline waits for the answer', async () => {
    const c = await shim({ Create: 20, Stats: 80 });
    await expect(c.call('Create', { id: 'b' }, 1_000)).resolves.toBe('Create');
    await expect(c.call('Stats')).resolves.toBe('Stats');
    c.socket.destroy();
  });
});
