// A container's main process without the runtime around it, for tests of the
// simulated shell: a bare image, no network, its log collected as lines.

import { dialTcp, isUdpHandler, listenPort } from '../network.js';
import { chunkText } from '../output.js';
import { SimProcess, type SleepTimers } from '../process.js';
import { resolveHost, type DnsTransport } from '../resolver.js';

export interface StartedProcess {
  p: SimProcess;
  /** Where each served container port really listens (with `network`). */
  ports: Map<number, { hostIp: string; hostPort: number }>;
  /** Where each served UDP container port really listens. */
  udpPorts: Map<number, { hostIp: string; hostPort: number }>;
  /** The container log as `stdout: text` / `stderr: text` lines. */
  log: string[];
}

/**
 * Starts `sh -c SCRIPT` (or `argv` as given) as PID 1; `timeScale` 20 makes a
 * container second 50 ms of wall time. `files` are added to the image.
 */
export function startProcess(
  script: string | string[],
  opts: {
    timeScale?: number;
    files?: Record<string, string>;
    programs?: string[];
    env?: Record<string, string>;
    network?: boolean;
    dns?: DnsTransport;
    connect?: (host: string, port: number) => Promise<import('node:net').Socket>;
    memoryLimitBytes?: number;
    baseMemoryBytes?: number;
    mounts?: import('../procfs.js').MountEntry[];
    cpuMax?: { quota: number; period: number };
    timers?: SleepTimers;
  } = {},
): StartedProcess {
  const log: string[] = [];
  // With `network`, container ports are served on free loopback ports (the local runner's mode).
  const ports = new Map<number, { hostIp: string; hostPort: number }>();
  const udpPorts = new Map<number, { hostIp: string; hostPort: number }>();
  const p: SimProcess = new SimProcess({
    argv: typeof script === 'string' ? ['sh', '-c', script] : script,
    env: { PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', HOME: '/root', ...opts.env },
    cwd: '/',
    files: { '/etc/hostname': 'test\n', '/srv/app/index.html': 'hi\n', ...opts.files },
    programs: opts.programs ?? [],
    timeScale: opts.timeScale ?? 20,
    memoryLimitBytes: opts.memoryLimitBytes ?? 0,
    baseMemoryBytes: opts.baseMemoryBytes ?? 0,
    ...(opts.mounts ? { mounts: opts.mounts } : {}),
    ...(opts.cpuMax ? { cpuMax: opts.cpuMax } : {}),
    ...(opts.timers ? { timers: opts.timers } : {}),
    output: (s, t) =>
      log.push(
        ...chunkText(t)
          .split('\n')
          .filter(Boolean)
          .map((l) => `${s}: ${l}`),
      ),
    listen: async (port, handler) => {
      if (!opts.network) throw new Error('no network in this test');
      const l = await listenPort('loopback', '127.0.0.1', port, handler);
      const map = isUdpHandler(handler) ? udpPorts : ports;
      map.set(port, { hostIp: l.hostIp, hostPort: l.hostPort });
      return {
        ...l,
        close: async () => {
          map.delete(port);
          await l.close();
        },
      };
    },
    // With `dns` (a fixture server's transport), names resolve through the container's resolver.
    // `connect` stands for a network the test shapes (a peer that drops SYNs).
    connect: (host, port) =>
      opts.connect?.(host, port) ??
      dialTcp(
        'loopback',
        '10.244.0.2',
        host,
        port,
        (p) => ports.get(p),
        async (name) => (await resolveHost(name, p.fs, opts.dns)).addresses[0]!,
      ),
    ...(opts.dns ? { dns: opts.dns } : {}),
  });
  p.start();
  return { p, log, ports, udpPorts };
}
