// The simulated binaries images ship: the registry of every program (pause,
// nginx and the teaching programs here; the servers and interpreters of the
// catalogue's other images in programs/).
// Each is a just-bash command bound to its container's process, so it can
// stream output, serve HTTP on a container port, react to TERM and allocate
// memory. Long-running programs end on TERM (when they handle it) or KILL.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineCommand, type Command } from 'just-bash';
import { SERVING_STATUS, type ServingStatus } from '@kubelab/proto/grpc-health';
import { healthServer } from './grpchealth.js';
import type { ProgramProcess } from './program-process.js';
import { agnhost } from './programs/agnhost.js';
import { coredns } from './programs/coredns.js';
import { memcached, mongod, mysqlClient, mysqladmin, mysqld, pgIsready, postgres, psql, rabbitmqServer } from './programs/databases.js';
import { getentCommand, hostCommand, nslookup } from './programs/dns-tools.js';
import { curl, wget } from './programs/http-clients.js';
import { httpd } from './programs/httpd.js';
import { redisCli, redisServer } from './programs/redis.js';
import { DEFAULT_SECURITY } from './security/context.js';
import { brctl, ifconfig, ip, ipcs, netstat, ping } from './programs/net-tools.js';
import { df, free, mount, pgrep, pidof, ps, top } from './programs/procps.js';
import { execEntrypoint, go, node, python, traefik } from './programs/runtimes.js';
import { vi } from './programs/vi.js';
import { CONTENT_TYPES, MiB, clf, ok, seconds, untilSignal } from './programs/util.js';

function nginx(proc: ProgramProcess, version: () => string): Command {
  let running = false;
  return defineCommand('nginx', async (args) => {
    if (args.includes('-v')) return ok('', 0, `nginx version: nginx/${version()}\n`);
    if (args.includes('-t')) return ok('', 0, 'nginx: the configuration file /etc/nginx/nginx.conf syntax is ok\nnginx: configuration file /etc/nginx/nginx.conf test is successful\n');
    if (running) return ok('', 1, 'nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)\n');
    running = true;
    const root = '/usr/share/nginx/html';
    const handler = async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let path = decodeURIComponent(url.pathname);
      if (path.endsWith('/')) path += 'index.html';
      let status = 200;
      let body: string;
      try {
        if (path.includes('..')) throw new Error('traversal');
        body = await proc.fs.readFile(`${root}${path}`);
      } catch {
        status = 404;
        body = `<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/${version()}</center>\r\n</body>\r\n</html>\r\n`;
      }
      const ext = path.slice(path.lastIndexOf('.') + 1);
      res.writeHead(status, { Server: `nginx/${version()}`, 'Content-Type': status === 200 ? (CONTENT_TYPES[ext] ?? 'application/octet-stream') : 'text/html' });
      res.end(req.method === 'HEAD' ? undefined : body);
      const addr = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '-';
      proc.write(
        'stdout',
        `${addr} - - [${clf(new Date())}] "${req.method} ${req.url} HTTP/${req.httpVersion}" ${status} ${Buffer.byteLength(body)} "${req.headers.referer ?? '-'}" "${req.headers['user-agent'] ?? '-'}" "-"\n`,
      );
    };
    // The port of default.conf's `listen` (hostnet-nginx serves 12003), 80 without one.
    const conf = await proc.fs.readFile('/etc/nginx/conf.d/default.conf').catch(() => '');
    const port = Number(/^\s*listen\s+(\d+)/m.exec(conf)?.[1] ?? 80);
    let listener;
    try {
      listener = await proc.listen(port, (req, res) => void handler(req, res));
    } catch (err) {
      running = false;
      return ok('', 1, `nginx: [emerg] bind() to 0.0.0.0:${port} failed (${(err as Error).message})\n`);
    }
    // nginx is the container's main process: PID 1 in a namespace of its own, its pod or node pid in a shared one.
    // The master retitles itself and forks a worker, as ps and /proc/PID/cmdline show them.
    const pid = proc.system.nsPid?.(1) ?? 1;
    proc.setTitle?.(`nginx: master process ${['nginx', ...args].join(' ')}`, 'nginx');
    proc.forkChild?.('nginx: worker process', 'nginx');
    await proc.fs.writeFile('/var/run/nginx.pid', `${pid}\n`).catch(() => undefined);
    const now = () => new Date().toISOString().replace('T', ' ').slice(0, 19).replace(/-/g, '/');
    proc.write('stderr', `${now()} [notice] 1#1: using the "epoll" event method\n${now()} [notice] 1#1: nginx/${version()}\n${now()} [notice] 1#1: start worker processes\n`);
    const sig = await untilSignal(proc, true);
    if (sig === 'TERM') proc.write('stderr', `${now()} [notice] 1#1: signal 15 (SIGTERM) received, exiting\n${now()} [notice] 1#1: exit\n`);
    await proc.unlisten(listener);
    running = false;
    return ok('', sig === 'TERM' ? 0 : 137);
  });
}

/** The sandbox's pause: sleeps until TERM (exit 0) or KILL. */
function pause(proc: ProgramProcess): Command {
  return defineCommand('pause', async () => {
    const sig = await untilSignal(proc, true);
    return ok('', sig === 'TERM' ? 0 : 137);
  });
}

/**
 * `nnp` (the e2e-test-images nonewprivs program): a setuid-root binary that
 * prints its effective uid. execve makes it root unless no_new_privs holds
 * the caller's uid (securityContext.allowPrivilegeEscalation: false).
 */
function nnp(proc: ProgramProcess): Command {
  return defineCommand('nnp', async () => {
    const s = proc.system.security ?? DEFAULT_SECURITY;
    return ok(`Effective uid: ${s.noNewPrivs ? s.identity.uid : 0}\n`);
  });
}

/** `crasher [seconds]`: exits 1 after N seconds (ignores TERM, like a PID 1 without handlers). */
function crasher(proc: ProgramProcess): Command {
  return defineCommand('crasher', async (args) => {
    const n = seconds(args[0], 5);
    proc.write('stdout', `crasher: started, exiting with status 1 in ${n}s\n`);
    await proc.sleep(n * 1000);
    return ok('', 1, 'crasher: fatal error: simulated crash\n');
  });
}

/** `slow-start [seconds] [port]`: serves /healthz on :8080 only after N seconds. */
function slowStart(proc: ProgramProcess): Command {
  return defineCommand('slow-start', async (args) => {
    const n = seconds(args[0], 20);
    const port = seconds(args[1], 8080);
    proc.write('stdout', `slow-start: warming up for ${n}s\n`);
    await proc.sleep(n * 1000);
    if (proc.exit) return ok('', 137);
    await proc.fs.writeFile('/tmp/started', `${new Date().toISOString()}\n`);
    const listener = await proc.listen(port, (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(req.url === '/healthz' || req.url === '/readyz' ? 'ok\n' : 'slow-start is up\n');
    });
    proc.write('stdout', `slow-start: listening on :${port}\n`);
    const sig = await untilSignal(proc, true);
    await proc.unlisten(listener);
    return ok('', sig === 'TERM' ? 0 : 137);
  });
}

/** `memhog [MiB-per-second]`: allocates until the cgroup limit, where the OOM killer ends it. */
function memhog(proc: ProgramProcess): Command {
  return defineCommand('memhog', async (args) => {
    const rate = seconds(args[0], 10);
    proc.cpuCores = 0.05;
    proc.write('stdout', `memhog: allocating ${rate} MiB per second\n`);
    for (;;) {
      await proc.sleep(1000);
      if (proc.exit) return ok('', 137);
      proc.allocatedBytes += rate * MiB;
      proc.write('stdout', `memhog: allocated ${Math.round(proc.allocatedBytes / MiB)} MiB\n`);
      if (proc.memoryLimitBytes > 0 && proc.memoryBytes() >= proc.memoryLimitBytes) {
        proc.oomKill();
        return ok('', 137);
      }
    }
  });
}

/** dd's block size: N, NK/NM/NG (×1024ⁿ), Nk (×1000), Nc/Nw/Nb (×1/2/512). */
function ddSize(text: string | undefined, fallback: number): number | undefined {
  if (text === undefined) return fallback;
  const m = /^(\d+)([cwbkKMG]?)$/.exec(text);
  if (!m) return undefined;
  const mult: Record<string, number> = { '': 1, c: 1, w: 2, b: 512, k: 1024, K: 1024, M: MiB, G: 1024 * MiB };
  return Number(m[1]) * mult[m[2]!]!;
}

/**
 * `dd [if=F] [of=F] [bs=N] [count=N]`: copies blocks. Its buffer is one block
 * of resident memory (a bs beyond the cgroup's memory.max is OOM-killed, as
 * critest's `dd if=/dev/zero of=/dev/null bs=20M` in 15 MiB is); from
 * /dev/zero or /dev/urandom without count it copies until killed.
 */
function dd(proc: ProgramProcess): Command {
  return defineCommand('dd', async (args) => {
    const opt: Record<string, string> = {};
    for (const a of args) {
      const i = a.indexOf('=');
      if (i <= 0) return ok('', 1, `dd: invalid operand '${a}'\n`);
      opt[a.slice(0, i)] = a.slice(i + 1);
    }
    const bs = ddSize(opt.bs, 512);
    if (bs === undefined) return ok('', 1, `dd: invalid number '${opt.bs}'\n`);
    const count = opt.count === undefined ? Infinity : Number(opt.count);
    if (!(count >= 0)) return ok('', 1, `dd: invalid number '${opt.count}'\n`);
    const input = opt.if ?? '/dev/stdin';
    const endless = input === '/dev/zero' || input === '/dev/urandom';
    proc.allocatedBytes += bs;
    try {
      if (proc.memoryLimitBytes > 0 && proc.memoryBytes() >= proc.memoryLimitBytes) {
        proc.oomKill();
        return ok('', 137);
      }
      let data = '';
      let records = 0;
      if (endless) {
        if (count === Infinity) {
          proc.cpuCores = 1;
          while (!proc.exit) await proc.sleep(1000);
          return ok('', 137);
        }
        records = count;
        data = (input === '/dev/zero' ? '\0' : 'x').repeat(Math.min(bs * count, 16 * MiB));
      } else {
        try {
          const text = await proc.fs.readFile(input);
          data = text.slice(0, count === Infinity ? undefined : bs * count);
        } catch {
          return ok('', 1, `dd: can't open '${input}': No such file or directory\n`);
        }
        records = Math.ceil(data.length / bs);
      }
      if (opt.of && opt.of !== '/dev/null') await proc.fs.writeFile(opt.of, data);
      const bytes = endless ? bs * count : data.length;
      return ok('', 0, `${records}+0 records in\n${records}+0 records out\n${bytes} bytes (${(bytes / MiB).toFixed(1)}MB) copied, 0.000001 seconds, ${bytes ? '1.0GB/s' : '0B/s'}\n`);
    } finally {
      proc.allocatedBytes = Math.max(0, proc.allocatedBytes - bs);
    }
  });
}

/** Where grpc-health reads the status it answers (absent: SERVING); `echo NOT_SERVING > /tmp/grpc-status` flips it. */
export const GRPC_STATUS_FILE = '/tmp/grpc-status';

/**
 * `grpc-health [port] [service...]`: serves grpc.health.v1.Health on :port
 * (default 8080) for the empty service and the named ones; any other name is
 * NotFound "unknown service". The status comes from /tmp/grpc-status.
 */
function grpcHealth(proc: ProgramProcess): Command {
  return defineCommand('grpc-health', async (args) => {
    const port = seconds(args[0], 8080);
    const known = new Set(['', ...args.slice(1)]);
    const statusOf = async (service: string): Promise<ServingStatus | undefined> => {
      if (!known.has(service)) return undefined;
      let text: string;
      try {
        text = (await proc.fs.readFile(GRPC_STATUS_FILE)).trim();
      } catch {
        return 'SERVING';
      }
      return (SERVING_STATUS as readonly string[]).includes(text) ? (text as ServingStatus) : 'UNKNOWN';
    };
    let listener;
    try {
      listener = await proc.listen(port, healthServer(statusOf));
    } catch (err) {
      return ok('', 1, `grpc-health: failed to listen on :${port}: ${(err as Error).message}\n`);
    }
    proc.write('stdout', `grpc-health: serving grpc.health.v1.Health on :${port}\n`);
    const sig = await untilSignal(proc, true);
    await proc.unlisten(listener);
    return ok('', sig === 'TERM' ? 0 : 137);
  });
}

/** stress's size argument: a number with an optional b/k/m/g suffix (powers of 1024). */
export function stressBytes(text: string | undefined, def: number): number {
  const m = /^(\d+)([bBkKmMgG]?)$/.exec(text ?? '');
  if (!m) return def;
  const mult = { '': 1, b: 1, k: 1024, m: MiB, g: 1024 * MiB }[m[2]!.toLowerCase()]!;
  return Number(m[1]) * mult;
}

/**
 * `stress --vm N --vm-bytes SIZE [--vm-hang S] [--cpu N] [--timeout S]` (the
 * polinux/stress image the Kubernetes memory docs use): holds N × SIZE of
 * memory, so stats, memory limits (OOMKilled) and node memory pressure react.
 */
function stress(proc: ProgramProcess): Command {
  return defineCommand('stress', async (args) => {
    const opt = (name: string) => {
      const i = args.indexOf(name);
      return i >= 0 ? args[i + 1] : undefined;
    };
    const vm = Math.max(0, Math.floor(seconds(opt('--vm') ?? opt('-m'), 0)));
    const cpu = Math.max(0, Math.floor(seconds(opt('--cpu') ?? opt('-c'), 0)));
    const bytes = stressBytes(opt('--vm-bytes'), 256 * MiB);
    const timeout = opt('--timeout') ?? opt('-t');
    if (!vm && !cpu) return ok('', 1, "`stress' imposes certain types of compute stress on your system\n\nUsage: stress [OPTION [ARG]] ...\n");
    proc.write('stdout', `stress: info: [1] dispatching hogs: ${cpu} cpu, 0 io, ${vm} vm, 0 hdd\n`);
    proc.cpuCores = Math.max(proc.cpuCores, cpu);
    proc.allocatedBytes = vm * bytes;
    if (proc.memoryLimitBytes > 0 && proc.memoryBytes() >= proc.memoryLimitBytes) {
      proc.oomKill();
      return ok('', 137);
    }
    const secs = timeout === undefined ? undefined : seconds(timeout.replace(/s$/, ''), 0);
    if (secs !== undefined) {
      await proc.sleep(secs * 1000);
      if (proc.exit) return ok('', 137);
      proc.allocatedBytes = 0;
      return ok(`stress: info: [1] successful run completed in ${secs}s\n`);
    }
    const sig = await untilSignal(proc, false);
    return ok('', sig === 'KILL' ? 137 : 0);
  });
}

/**
 * Where the real process of a stand-in runs: a compose service
 * (KUBELAB_COMPONENT_SERVICE), a process of the local runner
 * (KUBELAB_COMPONENT_PROCESS), the node's own unit in the local runner
 * (KUBELAB_COMPONENT_UNIT), else the node's own compose container.
 */
export function standInWhere(name: string, env: Record<string, string>): string {
  if (env.KUBELAB_COMPONENT_SERVICE) return `${name} runs in a container of its own: the compose service "${env.KUBELAB_COMPONENT_SERVICE}" (docker compose logs ${env.KUBELAB_COMPONENT_SERVICE})`;
  if (env.KUBELAB_COMPONENT_PROCESS) return `${name} runs as a process of its own: "${env.KUBELAB_COMPONENT_PROCESS}" of kubelab up (its log: <state-dir>/logs/${env.KUBELAB_COMPONENT_PROCESS}.log)`;
  if (env.KUBELAB_COMPONENT_UNIT)
    return `${name} runs as a service of this node: ${env.KUBELAB_COMPONENT_UNIT}.service (systemctl status ${env.KUBELAB_COMPONENT_UNIT}, journalctl -u ${env.KUBELAB_COMPONENT_UNIT})`;
  return `${name} runs in a container of its own: this node's own ${name} container (docker compose ps)`;
}

/**
 * A control-plane component, kube-proxy or the Node Problem Detector as the node's runtime sees it: the
 * real process runs outside the runtime, so this stand-in only
 * says so and lives until stopped; the pod's probes reach the real process
 * (kubeadm's static pods and kube-proxy DaemonSet made visible).
 */
function componentStandIn(name: string): (proc: ProgramProcess, env: () => Record<string, string>) => Command {
  return (proc, env) =>
    defineCommand(name, async (args) => {
      // The local runner's DaemonSet pods have no probe (one template cannot name each node's shifted port).
      const probed = env().KUBELAB_COMPONENT_UNIT ? '' : "; the pod's probes check the real process";
      proc.write('stdout', `kubelab: ${standInWhere(name, env())}. This container stands in for it in the node's runtime${probed}.\n`);
      proc.write('stdout', `kubelab: command line: ${[name, ...args].join(' ')}\n`);
      const sig = await untilSignal(proc, true);
      return ok('', sig === 'TERM' ? 0 : 137);
    });
}

/** Binaries of the control-plane images (registry.k8s.io, and NATS in etcd's role) that stand in for kubelab's components. */
export const COMPONENT_PROGRAMS = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy', 'node-problem-detector', 'nats-server', 'metrics-server'] as const;

/** Binaries of add-on images no kubelab process stands behind yet: they say so and sleep until stopped. */
export const UNSIMULATED_PROGRAMS = ['etcd', 'local-path-provisioner'] as const;

function unsimulated(name: string): (proc: ProgramProcess) => Command {
  return (proc) =>
    defineCommand(name, async () => {
      proc.write('stdout', `kubelab: ${name} is not simulated in this cluster; this container only holds its image's place and sleeps until stopped.\n`);
      const sig = await untilSignal(proc, true);
      return ok('', sig === 'TERM' ? 0 : 137);
    });
}

const FACTORIES: Record<string, (proc: ProgramProcess, env: () => Record<string, string>) => Command> = {
  nnp,
  ...Object.fromEntries(COMPONENT_PROGRAMS.map((n) => [n, componentStandIn(n)])),
  ...Object.fromEntries(UNSIMULATED_PROGRAMS.map((n) => [n, unsimulated(n)])),
  nginx: (proc, env) => nginx(proc, () => env().NGINX_VERSION ?? '1.27.3'),
  pause,
  crasher,
  'slow-start': slowStart,
  memhog,
  'grpc-health': grpcHealth,
  stress,
  'docker-entrypoint.sh': () => execEntrypoint('docker-entrypoint.sh'),
  'entrypoint.sh': () => execEntrypoint('entrypoint.sh'),
  'redis-server': redisServer,
  'redis-cli': redisCli,
  httpd: (proc, env) => httpd(proc, env, 'httpd'),
  'httpd-foreground': (proc, env) => httpd(proc, env, 'httpd-foreground'),
  postgres,
  pg_isready: pgIsready,
  psql: (_proc, env) => psql(env),
  mysqld,
  mysqladmin,
  mysql: (_proc, env) => mysqlClient(env),
  mongod,
  'rabbitmq-server': rabbitmqServer,
  memcached,
  python: (proc, env) => python(proc, env, 'python'),
  python3: (proc, env) => python(proc, env, 'python3'),
  node,
  go: (_proc, env) => go(env),
  traefik,
  agnhost,
  coredns,
  wget,
  curl,
  nslookup,
  host: hostCommand,
  getent: getentCommand,
  ps,
  top,
  free,
  df,
  mount,
  ip,
  ifconfig,
  netstat,
  vi,
  pgrep,
  pidof,
  dd,
  ipcs,
  brctl,
  ping,
};

/** Whether a program an image names is simulated here (the catalogue's test holds every image to it). */
export function isSimulatedProgram(name: string): boolean {
  return name in FACTORIES;
}

/** The commands for an image's programs, bound to one process. */
export function programsFor(names: string[], proc: ProgramProcess): Command[] {
  const out: Command[] = [];
  for (const n of names) {
    const f = FACTORIES[n];
    if (f) out.push(f(proc, () => proc.bash.getEnv()));
  }
  return out;
}
