#!/usr/bin/env node
// The shim host: one process per node that runs every pod sandbox's shim
// (shim/virtual.ts: upstream's containerd-shim-runc-v2 of that sandbox, its
// socket, task directory and a virtual pid). `-namespace k8s.io -address
// <containerd's socket>`, started by containerd on the first sandbox with
// its directory (paths.ts hostDir) as cwd and in a session of its own, so
// that containerd's end (kill -9, `systemctl restart containerd` with
// KillMode=process) leaves it and the pods' containers running; the next
// containerd finds it by its control socket and each sandbox's shim by its
// task directory. It exits once its last shim has ended.
//
// Why one process: a Node.js process costs 230–260 ms of CPU and ~65 MB to
// start, far more than a pod's whole start may cost; a shim inside the host
// costs a socket and a directory.
//
// Control socket (JSON lines, rpc.ts): `Create {id}` makes sandbox id's shim
// from the task directory containerd prepared (options.json) and answers
// `{pid}` once it serves its socket.

import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { joinCgroup } from '@kubelab/systemd';
import { Attachment, imagePrompt } from '../streaming/attach.js';
import type { StreamingServer } from '../streaming/server.js';
import { followNodeFaults, logOomKill } from '../node-faults.js';
import { SocketLbMaps, type L4 } from '../socket-lb.js';
import { readLines, send, type Request } from './rpc.js';
import { HOST_EXITING, SHIM_BINARY, hostArgs, taskDir, taskRoot, type ShimOptions } from './paths.js';
import { writePsFile } from './ps-file.js';
import { VirtualShim, type HostContext } from './virtual.js';
import { pidMax, virtualPid } from './vpid.js';

/** What containerd hands the host in its directory (host.json): the node-wide part of the shims' options. */
export interface HostOptions {
  stateDir: string;
  /** The control socket. */
  socket: string;
  networkMode: ShimOptions['networkMode'];
  timeScale: number;
  streamServerAddress: string;
  socketLbDir?: string;
}

/** How long the host waits with no shim before it exits (a burst's next sandbox reuses it). */
const IDLE_EXIT_MS = 2000;

function flag(name: string): string {
  const i = process.argv.indexOf(`-${name}`);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (!v) {
    process.stderr.write(`${SHIM_BINARY}: -${name} is required\n`);
    process.exit(2);
  }
  return v;
}

const address = flag('address');
flag('namespace');
// ps shows a shim's command line (the interpreter and script path go away; comm becomes "containerd-shim").
process.title = [SHIM_BINARY, ...hostArgs(address)].join(' ');
const opts = JSON.parse(readFileSync('host.json', 'utf8')) as HostOptions;
const log = (msg: string, fields: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg, ...fields })}\n`);

const shims = new Map<string, VirtualShim>();
const maxPid = pidMax();
let created = 0;
let exiting = false;
let idleTimer: NodeJS.Timeout | undefined;

// Loopback mode's pod network: the node's socket-LB maps, read at each connect.
const socketLb = opts.socketLbDir ? new SocketLbMaps(opts.socketLbDir) : undefined;

// The streaming server (Exec, Attach) and what it loads (WebSocket, SPDY) start
// with the first stream asked for: most nodes' shims never get one.
let streaming: Promise<StreamingServer> | undefined;
const streamingServer = (): Promise<StreamingServer> =>
  (streaming ??= import('../streaming/server.js')
    .then(({ StreamingServer }) =>
      StreamingServer.start({
        host: opts.streamServerAddress,
        port: 0,
        target: (cid) => {
          const p = VirtualShim.streamTarget(shims.values(), cid);
          if (!p) throw new Error('container is in CONTAINER_EXITED state');
          const prompt = imagePrompt(p.spec.image);
          return { execStream: (argv, o) => p.proc.execStream(argv, o), execCwd: p.proc.execCwd, ...(prompt ? { prompt } : {}) };
        },
        attach: (req, write) => {
          const p = VirtualShim.streamTarget(shims.values(), req.containerId);
          if (!p) throw new Error('container is in CONTAINER_EXITED state');
          return new Attachment({ config: p.spec.stdio, ...(p.stdinShell ? { shell: p.stdinShell } : {}) }, req, write, p.proc);
        },
        onError: (msg, fields) => log(msg, fields),
      }),
    )
    .catch((err: unknown) => {
      streaming = undefined; // the next stream asked for tries again
      throw err;
    }));

const context: HostContext = {
  hostPid: process.pid,
  address,
  tasks: {
    ...(socketLb ? { route: (ip: string, port: number, proto: L4, src?: string) => socketLb.decide(ip, port, proto, src) } : {}),
    timeScale: opts.timeScale > 0 ? opts.timeScale : 1,
    // The cgroup OOM killer's lines go to the node's kernel log, where dmesg and NPD's kernel monitor (OOMKilling) read them.
    oomKilled: (v) =>
      void logOomKill(process.env.KUBELAB_NODE_ROOT || '/', process.env.KUBELAB_NODE_NAME || hostname(), v).catch((err: Error) =>
        log('cannot write the kernel log', { level: 'warning', err: err.message }),
      ),
  },
  streaming: streamingServer,
  log,
  ended: (shim) => {
    if (shims.get(shim.id) === shim) shims.delete(shim.id);
    if (!shims.size) idleExit();
  },
};

/** With no shim left, the host goes after IDLE_EXIT_MS unless a sandbox comes meanwhile. */
function idleExit(): void {
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (!shims.size) void quit(0);
  }, IDLE_EXIT_MS);
}

async function create(p: { id: string }): Promise<{ pid: number }> {
  if (exiting) throw new Error(HOST_EXITING);
  if (typeof p?.id !== 'string' || !/^[0-9a-zA-Z][0-9a-zA-Z._-]*$/.test(p.id)) throw new Error('invalid sandbox id');
  const have = shims.get(p.id);
  if (have) return { pid: have.pid };
  const dir = taskDir(opts.stateDir, p.id);
  if (!existsSync(join(dir, 'options.json'))) throw new Error(`${dir}/options.json: no such file`);
  clearTimeout(idleTimer);
  const shim = new VirtualShim(p.id, virtualPid(maxPid, created++), dir, context);
  shims.set(p.id, shim);
  try {
    await shim.listen();
  } catch (err) {
    shims.delete(p.id);
    if (!shims.size) idleExit();
    throw err;
  }
  return { pid: shim.pid };
}

async function quit(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  log('shim host exiting', { code });
  // The socket and directory go first: a host containerd starts once this one stops answering has them to itself.
  rmSync(opts.socket, { force: true });
  rmSync(process.cwd(), { recursive: true, force: true });
  control.close();
  for (const s of conns) s.end();
  await Promise.all([...shims.values()].map((s) => s.close()));
  if (streaming) await (await streaming.catch(() => undefined))?.close();
  process.exit(code);
}

const conns = new Set<Socket>();
const control = createServer((socket) => {
  conns.add(socket);
  socket.on('close', () => conns.delete(socket));
  socket.on('error', () => socket.destroy());
  readLines(socket, (m) => {
    const req = m as Request;
    if (typeof req.id !== 'number' || typeof req.method !== 'string') return;
    if (req.method !== 'Create') {
      send(socket, { id: req.id, error: { message: `method ${req.method} not implemented` } });
      return;
    }
    create(req.params as { id: string }).then(
      (result) => send(socket, { id: req.id, result }),
      (err: Error) => send(socket, { id: req.id, error: { message: err.message } }),
    );
  });
});
rmSync(opts.socket, { force: true });
await new Promise<void>((resolve, reject) => {
  control.once('error', reject);
  control.listen(opts.socket, () => resolve());
});
writeFileSync('address', `unix://${opts.socket}`);
writeFileSync('shim.pid', String(process.pid));
writePsFile(process.cwd(), { pid: process.pid, shims: relative(process.cwd(), taskRoot(opts.stateDir)) });
// The node going away (SIGTERM from the supervisor's stop, as systemd ends the whole cgroup): the containers end with it.
for (const sig of ['SIGTERM', 'SIGINT'] as const) process.on(sig, () => void quit(0));
// Still containerd.service's process after leaving its tree: the node's stop ends it (KillMode=process spares it on a restart).
joinCgroup();
// The containers' writes meet the node's read-only remount here, where they run (kubelab fault readonly-filesystem).
followNodeFaults(process.env.KUBELAB_NODE_ROOT || '/');
// A host nobody asks for a shim goes (containerd died before its first Create).
idleExit();
log('shim host started', { socket: opts.socket, pidMax: maxPid });
// Ready: containerd reads this line and lets go of the host's stdout.
process.stdout.write(`unix://${opts.socket}\n`);
