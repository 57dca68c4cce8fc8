// `/portForward/{namespace}/{pod}[/{uid}]` on the kubelet port (upstream
// pkg/kubelet/server getPortForward + kuberuntime GetPortForward): the
// WebSocket form names its ports in `port` query parameters (upstream
// portforward.NewV4Options); the SPDY form names them per stream, later.
// The pod's newest sandbox gets a CRI PortForward URL, and the client's
// upgraded connection is proxied to the runtime's streaming server.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUpgradeRequest } from '@kubelab/component-base';
import type { Kubelet } from '../kubelet.js';
import { streamFromRuntime } from './exec.js';

export const PORT_FORWARD_PATH = /^\/portForward\/([^/]+)\/([^/]+)(?:\/([^/]+))?\/?$/;

/** The ports of a WebSocket request (upstream NewV4Options); a SPDY request has none here. */
export function portForwardPorts(q: URLSearchParams, websocket: boolean): { ok: true; ports: number[] } | { ok: false; message: string } {
  if (!websocket) return { ok: true, ports: [] };
  const values = q.getAll('port');
  if (values.length === 0) return { ok: false, message: 'query parameter "port" is required' };
  const ports: number[] = [];
  for (const v of values) {
    if (v === '') return { ok: false, message: 'query parameter "port" cannot be empty' };
    for (const p of v.split(',')) {
      const n = /^\d+$/.test(p) ? Number(p) : NaN;
      if (!(n <= 65535))
        return { ok: false, message: `unable to parse "${v}" as a port: strconv.ParseUint: parsing ${JSON.stringify(p)}: ${/^\d+$/.test(p) ? 'value out of range' : 'invalid syntax'}` };
      if (n < 1) return { ok: false, message: `port "${v}" must be > 0` };
      ports.push(n);
    }
  }
  return { ok: true, ports };
}

function fail(res: ServerResponse, code: number, message: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(message);
}

/** Serves a port-forward request; `url` is the parsed request URL. */
export async function servePortForward(k: Kubelet, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [ns, podName, uid] = PORT_FORWARD_PATH.exec(url.pathname)!
    .slice(1)
    .map((s) => (s === undefined ? undefined : decodeURIComponent(s)));
  if (!isUpgradeRequest(req)) return fail(res, 400, 'unable to upgrade: missing upgrade headers in request');
  const websocket = String(req.headers.upgrade).toLowerCase() === 'websocket';
  const ports = portForwardPorts(url.searchParams, websocket);
  if (!ports.ok) return fail(res, 400, ports.message);
  const found = k.findPod(ns!, podName!);
  if (!found) return fail(res, 404, 'pod does not exist');
  if (uid && found.uid !== uid) return fail(res, 404, 'pod not found');
  if (!k.rt.portForward) return fail(res, 500, 'the container runtime does not implement PortForward');
  const rs = await k.runtimeManager.getPodStatus(found.uid, podName!, ns!);
  const sandbox = rs.sandboxes.find((s) => s.ready) ?? rs.sandboxes[0];
  if (!sandbox) return fail(res, 500, `pod not found (${JSON.stringify(`${podName}_${ns}`)})`);
  await streamFromRuntime(req, res, () => k.rt.portForward!({ podSandboxId: sandbox.id, port: ports.ports }));
}
