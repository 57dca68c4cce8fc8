// A worker's control socket (kubelab's, no upstream counterpart: kubemark's
// hollow nodes are pods one deletes): HTTP on a unix socket in the runner's
// run/ folder, for `kubelab hollow status|stop|start`.
//
//   GET  /nodes                         → {"nodes":[{"name","zone","state"}]}
//   POST /stop  {"nodes":["node-1"]}    → {"nodes":["node-1"]}  (those it stopped)
//   POST /start {"nodes":["node-1"]}    → {"nodes":["node-1"]}  (those it started again)
//
// A bad request gets 400 with a metav1.Status-like {"message"}.

import { rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { HollowWorker } from './worker.js';

/** The largest request body read (a thousand node names fit many times). */
const MAX_BODY = 1 << 20;

function send(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > MAX_BODY) throw new Error('request body too large');
  }
  return body;
}

/** The node names of a POST body: {"nodes": [string, ...]}. */
export function parseNodeList(body: string): string[] {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    throw new Error('the body is not JSON');
  }
  const nodes = (v as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes) || !nodes.every((n) => typeof n === 'string')) throw new Error('the body must be {"nodes": ["<node name>", ...]}');
  return nodes as string[];
}

export async function serveControl(path: string, worker: Pick<HollowWorker, 'list' | 'power'>): Promise<Server> {
  rmSync(path, { force: true });
  const server = createServer((req, res) => {
    void (async () => {
      try {
        if (req.method === 'GET' && req.url === '/nodes') return send(res, 200, { nodes: worker.list() });
        const action = req.url === '/stop' ? 'stop' : req.url === '/start' ? 'start' : undefined;
        if (req.method !== 'POST' || !action) return send(res, 404, { message: `no such request: ${req.method} ${req.url}` });
        let names: string[];
        try {
          names = parseNodeList(await readBody(req));
        } catch (e) {
          return send(res, 400, { message: (e as Error).message });
        }
        send(res, 200, { nodes: await worker.power(action, names) });
      } catch (e) {
        send(res, 500, { message: (e as Error).message });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  return server;
}
