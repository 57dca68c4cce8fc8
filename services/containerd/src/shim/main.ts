#!/usr/bin/env node
// containerd-shim-runc-v2 for one pod sandbox: `-namespace k8s.io -id <sandbox
// id> -address <containerd's socket>`, started by containerd with the task
// directory as its cwd and in a session of its own, so that containerd's end
// (kill -9, `systemctl restart containerd` with KillMode=process) leaves it
// and the pod's containers running. It runs the sandbox's tasks
// (tasks.ts LocalTasks: the simulated processes, their logs and ports) and
// serves the task API (rpc.ts) on its socket to whichever containerd
// connects, plus a streaming server for Exec and Attach on its containers.
// It exits once containerd has shut the sandbox down and nothing runs.

import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { LocalTasks, TaskStartError, type TaskEvents, type TaskSpec } from '../tasks.js';
import { Attachment, imagePrompt, stdinShell } from '../streaming/attach.js';
import type { AttachRequest, ExecRequest, StreamingServer } from '../streaming/server.js';
import { readLines, send, type Event, type Request } from './rpc.js';
import { SHIM_BINARY, shimArgs, type ShimOptions } from './paths.js';
import { writePsFile } from './ps-file.js';
import { followNodeFaults, logOomKill } from '../node-faults.js';
import { hostname } from 'node:os';
import { SocketLbMaps, type L4 } from '../socket-lb.js';
import { joinCgroup } from '@kubelab/systemd';

function flag(name: string): string {
  const i = process.argv.indexOf(`-${name}`);
  const v = i >= 0 ? process.argv[i + 1] : undefined;
  if (!v) {
    process.stderr.write(`${SHIM_BINARY}: -${name} is required\n`);
    process.exit(2);
  }
  return v;
}

const id = flag('id');
const address = flag('address');
flag('namespace');
// ps shows upstream's command line (the interpreter and script path go away; comm becomes "containerd-shim").
process.title = [SHIM_BINARY, ...shimArgs(id, address)].join(' ');
const opts = JSON.parse(readFileSync('options.json', 'utf8')) as ShimOptions;
const log = (msg: string, fields: Record<string, unknown> = {}) => process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg, id, ...fields })}\n`);

const conns = new Set<Socket>();
const broadcast = (e: Event) => {
  for (const s of conns) send(s, e);
};
let shuttingDown = false;
const events: TaskEvents = {
  exit: (taskId, exit) => {
    broadcast({ event: 'exit', params: { id: taskId, exit } });
    psFile();
    maybeExit();
  },
  ports: (ports) => broadcast({ event: 'ports', params: ports }),
  lost: () => {},
};
// Loopback mode's pod network: the node's socket-LB maps, read at each connect.
const socketLb = opts.socketLbDir ? new SocketLbMaps(opts.socketLbDir) : undefined;
const tasks = new LocalTasks(
  {
    podIp: opts.podIp,
    networkMode: opts.networkMode,
    ...(socketLb ? { route: (ip: string, port: number, proto: L4, src?: string) => socketLb.decide(ip, port, proto, src) } : {}),
    timeScale: opts.timeScale > 0 ? opts.timeScale : 1,
    warn: (msg, fields) => log(msg, { level: 'warning', ...fields }),
    mainProcess: (spec, proc) => stdinShell(spec.stdio, proc, imagePrompt(spec.image)),
    // The cgroup OOM killer's lines go to the node's kernel log, where dmesg and NPD's kernel monitor (OOMKilling) read them.
    oomKilled: (v) =>
      void logOomKill(process.env.KUBELAB_NODE_ROOT || '/', process.env.KUBELAB_NODE_NAME || hostname(), v).catch((err: Error) =>
        log('cannot write the kernel log', { level: 'warning', err: err.message }),
      ),
  },
  events,
);
const psFile = () => writePsFile(process.pid, tasks);

// The streaming server (Exec, Attach) and what it loads (WebSocket, SPDY) start
// with the first stream asked for: most sandboxes never get one, and a shim
// starts per pod.
let streaming: Promise<StreamingServer> | undefined;
const streamingServer = (): Promise<StreamingServer> =>
  (streaming ??= import('../streaming/server.js')
    .then(({ StreamingServer }) =>
      StreamingServer.start({
        host: opts.streamServerAddress,
        port: 0,
        target: (cid) => {
          const p = tasks.process(cid);
          if (!p) throw new Error('container is in CONTAINER_EXITED state');
          const prompt = imagePrompt(p.spec.image);
          return { execStream: (argv, o) => p.proc.execStream(argv, o), execCwd: p.proc.execCwd, ...(prompt ? { prompt } : {}) };
        },
        attach: (req, write) => {
          const p = tasks.process(req.containerId);
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

type Handler = (params: never) => Promise<unknown>;
const methods: Record<string, Handler> = {
  Start: async (spec: TaskSpec) => {
    const r = await tasks.start(spec);
    psFile();
    return r;
  },
  Kill: (p: { id: string; signal: 'SIGTERM' | 'SIGKILL' }) => tasks.kill(p.id, p.signal),
  Exec: (p: { id: string; cmd: string[]; timeoutMs: number }) => tasks.execSync(p.id, p.cmd, p.timeoutMs),
  Stats: (p: { id: string }) => tasks.usage(p.id),
  Update: (p: { id: string; memoryLimitBytes: number }) => tasks.update(p.id, p.memoryLimitBytes),
  ReopenLog: (p: { id: string }) => tasks.reopenLog(p.id),
  State: () => tasks.state(),
  Delete: (p: { id: string }) => tasks.delete(p.id),
  StreamUrl: async (p: { kind: 'exec'; req: ExecRequest } | { kind: 'attach'; req: AttachRequest }) => {
    const server = await streamingServer();
    return p.kind === 'exec' ? server.getExec(p.req) : server.getAttach(p.req);
  },
  Shutdown: async () => {
    shuttingDown = true;
    await tasks.shutdown();
    setImmediate(maybeExit);
  },
};

/** Once the sandbox is shut down and its last task ended, the shim goes (upstream: after the last Delete). */
function maybeExit(): void {
  if (!shuttingDown || tasks.running > 0) return;
  void quit(0);
}

async function quit(code: number): Promise<void> {
  log('shim exiting', { code });
  server.close();
  for (const s of conns) s.end();
  if (streaming) await (await streaming).close();
  rmSync(opts.socket, { force: true });
  // The bundle goes with the shim: a containerd that starts later finds no task here.
  rmSync(process.cwd(), { recursive: true, force: true });
  process.exit(code);
}

const server = createServer((socket) => {
  conns.add(socket);
  socket.on('close', () => conns.delete(socket));
  socket.on('error', () => socket.destroy());
  readLines(socket, (m) => {
    const req = m as Request;
    if (typeof req.id !== 'number' || typeof req.method !== 'string') return;
    const fn = methods[req.method];
    if (!fn) {
      send(socket, { id: req.id, error: { message: `method ${req.method} not implemented` } });
      return;
    }
    fn(req.params as never).then(
      (result) => send(socket, { id: req.id, result: result ?? null }),
      (err: Error) => send(socket, { id: req.id, error: { message: err.message, ...(err instanceof TaskStartError ? { kind: 'TaskStartError' } : {}) } }),
    );
  });
});
rmSync(opts.socket, { force: true });
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(opts.socket, () => resolve());
});
writeFileSync('address', `unix://${opts.socket}`);
writeFileSync('shim.pid', String(process.pid));
psFile();
// The node going away (SIGTERM from the supervisor's stop, as systemd ends the whole cgroup): the containers end with it.
for (const sig of ['SIGTERM', 'SIGINT'] as const)
  process.on(sig, () => {
    void tasks.close().then(() => quit(0));
  });
// Still containerd.service's process after leaving its tree: the node's stop ends it (KillMode=process spares it on a restart).
joinCgroup();
// The containers' writes meet the node's read-only remount here, where they run (kubelab fault readonly-filesystem).
followNodeFaults(process.env.KUBELAB_NODE_ROOT || '/');
log('shim started', { socket: opts.socket });
// Ready: containerd reads this line and lets go of the shim's stdout.
process.stdout.write(`unix://${opts.socket}\n`);
