// The control socket systemctl talks to (systemd's /run/systemd/private, one
// per unit here since each unit has its own manager): a request per
// connection, one JSON line each way.

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { dirname, join } from 'node:path';

export type ControlVerb = 'start' | 'stop' | 'restart' | 'kill';

export interface ControlRequest {
  verb: ControlVerb;
  /** `systemctl kill --signal=`; SIGTERM by default, as systemctl. */
  signal?: NodeJS.Signals;
}

export interface ControlReply {
  ok: boolean;
  error?: string;
}

/** Longest path a unix socket address holds (sun_path, Linux). */
const SUN_PATH_MAX = 107;

export function controlSocketPath(root: string, unit: string): string {
  return join(root, 'run', 'systemd', 'units', `${unit}.sock`);
}

const VERBS = new Set<ControlVerb>(['start', 'stop', 'restart', 'kill']);
/** Bounded request: a verb and a signal name fit in far less. */
const MAX_REQUEST_BYTES = 4096;

/** Validates a request line; returns the error systemctl would print for anything else. */
export function parseControlRequest(line: string): ControlRequest | { error: string } {
  let req: unknown;
  try {
    req = JSON.parse(line);
  } catch {
    return { error: 'malformed request' };
  }
  const r = req as Partial<ControlRequest>;
  if (typeof r !== 'object' || r === null || !VERBS.has(r.verb as ControlVerb)) return { error: `unknown verb ${JSON.stringify(r?.verb)}` };
  if (r.signal !== undefined && (typeof r.signal !== 'string' || !/^SIG[A-Z0-9]+$/.test(r.signal))) return { error: `Failed to parse signal string ${String(r.signal)}.` };
  return { verb: r.verb!, ...(r.signal ? { signal: r.signal } : {}) };
}

/** Serves `handle` on a unix socket; returns the server, or undefined when the path is too long for a socket address. */
export async function serveControl(path: string, handle: (req: ControlRequest) => Promise<void>): Promise<Server | undefined> {
  if (Buffer.byteLength(path) > SUN_PATH_MAX) return undefined;
  mkdirSync(dirname(path), { recursive: true });
  if (existsSync(path)) rmSync(path, { force: true }); // a stale socket of a manager that was killed
  const server = createServer((sock) => {
    let buf = '';
    sock.setEncoding('utf8');
    sock.on('error', () => sock.destroy());
    sock.on('data', (d: string) => {
      buf += d;
      if (buf.length > MAX_REQUEST_BYTES) return void sock.end(JSON.stringify({ ok: false, error: 'request too large' }) + '\n');
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      const req = parseControlRequest(buf.slice(0, nl));
      if ('error' in req) return void sock.end(JSON.stringify({ ok: false, error: req.error } satisfies ControlReply) + '\n');
      handle(req).then(
        () => sock.end(JSON.stringify({ ok: true } satisfies ControlReply) + '\n'),
        (e: unknown) => sock.end(JSON.stringify({ ok: false, error: (e as Error).message } satisfies ControlReply) + '\n'),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Sends one request and waits for the reply (a stop waits for the process to end, hence the long default). */
export function sendControl(path: string, req: ControlRequest, timeoutMs = 120_000): Promise<ControlReply> {
  return new Promise((resolve, reject) => {
    const sock = createConnection(path);
    let buf = '';
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`no answer from ${path} within ${timeoutMs} ms`));
    }, timeoutMs);
    sock.setEncoding('utf8');
    sock.on('connect', () => sock.write(JSON.stringify(req) + '\n'));
    sock.on('data', (d: string) => (buf += d));
    sock.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    sock.on('end', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buf) as ControlReply);
      } catch {
        reject(new Error(`malformed answer from ${path}`));
      }
    });
  });
}
