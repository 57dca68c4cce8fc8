// What a simulated binary sees of the process it runs as (in a real runtime:
// the syscalls a program makes — write to stdout, sleep, bind a port, allocate
// memory). SimProcess provides it; programs.ts only needs this much, so the two
// modules do not import each other.

import type { Socket } from 'node:net';
import type { ContainerFs } from './containerfs.js';
import type { Stream } from './logs.js';
import type { Listener, PortHandler } from './network.js';
import type { DnsTransport } from './resolver.js';
import type { SystemView } from './procfs.js';

/** The terminal of an interactive exec (`kubectl exec -it`) a program reads key by key (vi, the redis-cli prompt). */
export interface Terminal {
  /** The next keys typed, as they came (escape sequences whole); undefined once the client closed its input. */
  read(): Promise<string | undefined>;
  /** Output to the screen as is (the program sends \r\n itself). */
  write(text: string): void;
  readonly rows: number;
  readonly cols: number;
}

/** The variable that tells a program of an exec which terminal is its own (the runtime's: `env` leaves it out). */
export const TTY_VAR = '__kubelab_tty';

export interface ProgramProcess {
  readonly fs: Pick<ContainerFs, 'readFile' | 'writeFile' | 'stat' | 'exists' | 'readdir'>;
  readonly bash: { getEnv(): Record<string, string> };
  /** Set once the process has exited: a program still looping stops. */
  readonly exit: { exitCode: number } | undefined;
  /** Resolves when the process is killed (KILL, OOM): long-running programs race against it. */
  readonly killed: Promise<void>;
  /** Extra memory a program allocated (memhog), on top of the image's baseline. */
  allocatedBytes: number;
  /** CPU the program burns, in cores. */
  cpuCores: number;
  readonly memoryLimitBytes: number;
  memoryBytes(): number;
  write(stream: Stream, text: string): void;
  /** Output on process `pid`'s fds as it runs (an exec's stream, or the log for PID 1 and its jobs). */
  writeTo(pid: number, stream: Stream, text: string): void;
  /** Container time runs this many times faster than wall time. */
  readonly timeScale: number;
  /** Sleeps in container time (scaled). */
  sleep(ms: number): Promise<void>;
  onTerm(handler: () => void): () => void;
  listen(port: number, handler: PortHandler): Promise<Listener>;
  unlisten(l: Listener): Promise<void>;
  /** Opens an outgoing TCP connection from the pod's network namespace. */
  connect(host: string, port: number): Promise<Socket>;
  /** The pod's DNS transport for nslookup and getent (undefined: no pod network, loopback mode). */
  readonly dns: DnsTransport | undefined;
  oomKill(): void;
  /** Rewrites the main process's command line (setproctitle); `comm` is the executable's name (the program an entrypoint exec'd). */
  setTitle?(title: string, comm?: string): void;
  /** Forks a child of the main process with this command line and comm; returns its pid in the container. */
  forkChild?(title: string, comm: string): number;
  /** The kernel's view of the container: processes, cgroup limits, mounts (ps, top, free, df, mount). */
  readonly system: SystemView;
  /** The terminal named by a command's TTY_VAR, if its exec has one. */
  terminal(id: string | undefined): Terminal | undefined;
}
