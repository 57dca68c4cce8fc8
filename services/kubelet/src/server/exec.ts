// `/exec/{namespace}/{pod}/{container}` on the kubelet port (upstream
// pkg/kubelet/server getExec + GetExec): checks the stream options, finds the
// running container, asks the runtime for a streaming URL (CRI Exec) and
// proxies the client's upgraded connection to it, as the kubelet does when
// it does not redirect. The query is what the apiserver sends:
// `command=...&command=...&input=1&output=1&error=1&tty=1`.
// `/attach/{namespace}/{pod}/{container}` (upstream getAttach + GetAttach) is
// the same without a command: CRI Attach connects the client to the
// container's main process, with the tty the container was created with.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { isUpgradeRequest, proxyUpgrade } from '@kubelab/component-base';
import type { Pod } from '@kubelab/api';
import type { Kubelet } from '../kubelet.js';
import type { RuntimeContainerStatus } from '../kuberuntime/podstatus.js';
import { CriClientError, type ExecRequest } from '../kuberuntime/cri.js';

export const EXEC_PATH = /^\/exec\/([^/]+)\/([^/]+)\/([^/]+)\/?$/;
export const ATTACH_PATH = /^\/attach\/([^/]+)\/([^/]+)\/([^/]+)\/?$/;

function flag(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v === '1' || v === 'true';
}

/** The stream options of an exec request (upstream remotecommand NewOptions): at least one stream; a tty folds stderr into stdout. */
export function execOptions(q: URLSearchParams): { ok: true; cmd: string[]; stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean } | { ok: false; message: string } {
  const o = streamOptions(q);
  if (!o.ok) return o;
  const cmd = q.getAll('command');
  if (cmd.length === 0) return { ok: false, message: 'you must specify at least one command for the container' };
  return { ok: true, cmd, stdin: o.stdin, stdout: o.stdout, stderr: o.stderr, tty: o.tty };
}

/** The stream options shared by exec and attach. */
export function streamOptions(q: URLSearchParams): { ok: true; stdin: boolean; stdout: boolean; stderr: boolean; tty: boolean } | { ok: false; message: string } {
  const stdin = flag(q, 'input');
  const stdout = flag(q, 'output');
  const tty = flag(q, 'tty');
  const stderr = flag(q, 'error') && !tty;
  if (!stdin && !stdout && !flag(q, 'error')) return { ok: false, message: 'you must specify at least 1 of stdin, stdout, stderr' };
  return { ok: true, stdin, stdout, stderr, tty };
}

/** The HTTP status for a runtime error (upstream streaming.WriteError: NotFound 404, else 500). */
function runtimeErrorCode(e: unknown): number {
  return CriClientError.isInstance(e) && e.code === 'NotFound' ? 404 : 500;
}

function fail(res: ServerResponse, code: number, message: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(message);
}

/** The pod and running container an exec or attach names, with the request's stream options. */
interface StreamTarget<O> {
  opts: O;
  ns: string;
  podName: string;
  container: string;
  pod: Pod;
  /** The container's running instance; undefined when it is not running (each caller words that answer). */
  running: RuntimeContainerStatus | undefined;
}

/**
 * The checks exec and attach share, in upstream's order: upgrade headers,
 * stream options, the pod, then its running containers (upstream
 * findContainer). Undefined once the error answer is sent.
 */
async function findTarget<O>(
  k: Kubelet,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  path: RegExp,
  parse: (q: URLSearchParams) => ({ ok: true } & O) | { ok: false; message: string },
): Promise<StreamTarget<O> | undefined> {
  const m = path.exec(url.pathname)!;
  const [ns, podName, container] = m.slice(1).map((s) => decodeURIComponent(s)) as [string, string, string];
  if (!isUpgradeRequest(req)) return void fail(res, 400, 'unable to upgrade: missing upgrade headers in request');
  const o = parse(url.searchParams);
  if (!o.ok) return void fail(res, 400, o.message);
  const found = k.findPod(ns, podName);
  if (!found) return void fail(res, 404, 'pod does not exist');
  const rs = await k.runtimeManager.getPodStatus(found.uid, podName, ns);
  const running = rs.containers.find((c) => c.name === container && c.state === 'running');
  return { opts: o, ns, podName, container, pod: found.pod, running };
}

/** Asks the runtime for a streaming URL (errors answered as upstream streaming.WriteError) and proxies the connection to it. */
export async function streamFromRuntime(req: IncomingMessage, res: ServerResponse, streamUrlOf: () => Promise<string>): Promise<void> {
  let streamUrl: string;
  try {
    streamUrl = await streamUrlOf();
  } catch (e) {
    return fail(res, runtimeErrorCode(e), CriClientError.isInstance(e) ? e.grpcText : (e as Error).message);
  }
  await proxyStream(req, res, streamUrl);
}

/** Serves an exec request; `url` is the parsed request URL. */
export async function serveExec(k: Kubelet, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const t = await findTarget(k, req, res, url, EXEC_PATH, execOptions);
  if (!t) return;
  // Only a running container can run a command (upstream findContainer over the running pods).
  const target = t.running;
  if (!target) return fail(res, 500, `container not found (${JSON.stringify(t.container)})`);
  if (!k.rt.exec) return fail(res, 500, 'the container runtime does not implement Exec');
  const o = t.opts;
  const execReq: ExecRequest = { containerId: target.id, cmd: o.cmd, tty: o.tty, stdin: o.stdin, stdout: o.stdout, stderr: o.stderr };
  await streamFromRuntime(req, res, () => k.rt.exec!(execReq));
}

async function proxyStream(req: IncomingMessage, res: ServerResponse, streamUrl: string): Promise<void> {
  try {
    // A WebSocket handshake is a GET; a SPDY upgrade keeps the client's POST.
    await proxyUpgrade(req, res, new URL(streamUrl), { method: String(req.headers.upgrade).toLowerCase() === 'websocket' ? 'GET' : (req.method ?? 'POST') });
  } catch (e) {
    if (!res.headersSent) fail(res, 500, `error proxying to the container runtime's streaming server ${streamUrl}: ${(e as Error).message}`);
  }
}

/** Serves an attach request: the running container's main process, with the tty of its spec (upstream GetAttach). */
export async function serveAttach(k: Kubelet, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const t = await findTarget(k, req, res, url, ATTACH_PATH, streamOptions);
  if (!t) return;
  const { container, running: target, opts: o } = t;
  const spec = t.pod.spec?.containers?.find((c) => c.name === container) ?? t.pod.spec?.initContainers?.find((c) => c.name === container);
  if (!target || !spec) return fail(res, 500, `container ${container} not found in pod ${t.podName}_${t.ns}`);
  if (!k.rt.attach) return fail(res, 500, 'the container runtime does not implement Attach');
  // Whether the process has a terminal was fixed when it started: the spec decides, not the request.
  const tty = !!spec.tty;
  await streamFromRuntime(req, res, () => k.rt.attach!({ containerId: target.id, tty, stdin: o.stdin, stdout: o.stdout, stderr: o.stderr && !tty }));
}
