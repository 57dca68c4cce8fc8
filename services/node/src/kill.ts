// kill on the node: bash's kill, and a signal to a containerd shim's pid. The
// shims are virtual (containerd's shim host runs them all; their pids are
// past pid_max, see shim-ps.ts), so a signal to one goes to the host over
// the shim's socket, where the fatal ones end that shim and its containers
// as a real shim's death does. The node shell's `kill` (shell/kill.bash)
// hands pids past pid_max here and the rest to bash's builtin.

import { connect } from 'node:net';
import { constants } from 'node:os';
import type { Io, NodeEnv, Tool } from './node-env.js';
import { nodeProcs } from './proc.js';
import { virtualShimSocket } from './shim-ps.js';

export interface KillArgs {
  signal: string | number;
  pids: number[];
  list?: boolean;
}

const signalNames = constants.signals as Record<string, number>;

/** A signal as kill takes it (KILL, SIGKILL, 9, 0) → its SIG name, or 0; undefined when unknown (pure). */
export function signalName(s: string): string | 0 | undefined {
  if (/^\d+$/.test(s)) {
    const n = Number(s);
    if (n === 0) return 0;
    return Object.keys(signalNames).find((k) => signalNames[k] === n);
  }
  const name = s.toUpperCase().startsWith('SIG') ? s.toUpperCase() : `SIG${s.toUpperCase()}`;
  return name in signalNames ? name : undefined;
}

/** `kill [-s SIG | -n NUM | -SIG | -NUM] pid...`, `kill -l` (pure). */
export function parseKill(argv: string[]): KillArgs | { error: string } {
  let signal: string | 0 = 'SIGTERM';
  const pids: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-l' || a === '-L') return { signal, pids, list: true };
    if (a === '--') {
      for (const p of argv.slice(i + 1)) {
        if (!/^\d+$/.test(p)) return { error: `kill: ${p}: arguments must be process or job IDs` };
        pids.push(Number(p));
      }
      break;
    }
    if ((a === '-s' || a === '-n') && pids.length === 0) {
      const v = argv[++i];
      const sig = v === undefined ? undefined : signalName(v);
      if (sig === undefined) return { error: v === undefined ? `kill: ${a}: option requires an argument` : `kill: ${v}: invalid signal specification` };
      signal = sig;
      continue;
    }
    if (a.startsWith('-') && pids.length === 0 && a.length > 1) {
      const sig = signalName(a.slice(1));
      if (sig === undefined) return { error: `kill: ${a.slice(1)}: invalid signal specification` };
      signal = sig;
      continue;
    }
    if (!/^\d+$/.test(a)) return { error: `kill: ${a}: arguments must be process or job IDs` };
    pids.push(Number(a));
  }
  if (!pids.length) return { error: 'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]' };
  return { signal, pids };
}

/**
 * Sends a signal to a virtual shim over its socket. The host answers, then
 * the shim dies of a fatal one and drops the connection: kill returns once
 * it is gone, as a real process is once kill(2) returns.
 */
function signalShim(socket: string, signal: string | number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = connect(socket);
    let buf = '';
    let answered = false;
    s.setEncoding('utf8');
    s.once('connect', () => s.write(`${JSON.stringify({ id: 1, method: 'Signal', params: { signal } })}\n`));
    s.on('data', (d: string) => {
      buf += d;
      if (answered || !buf.includes('\n')) return;
      answered = true;
      let r: { result?: { effect?: string }; error?: { message: string } };
      try {
        r = JSON.parse(buf.slice(0, buf.indexOf('\n'))) as typeof r;
      } catch {
        r = { error: { message: 'bad answer' } };
      }
      if (r.error) {
        s.destroy();
        reject(new Error(r.error.message));
      } else if (r.result?.effect !== 'exit') s.end();
      // A fatal signal: the shim closes the connection as it dies.
      else setTimeout(() => s.destroy(), 5000).unref();
    });
    s.once('error', (e) => (answered ? resolve() : reject(e)));
    s.once('close', () => (answered ? resolve() : reject(new Error('No such process'))));
  });
}

export const kill: Tool = async (argv: string[], io: Io, env: NodeEnv) => {
  const args = parseKill(argv);
  if ('error' in args) {
    io.err(`bash: ${args.error}\n`);
    return args.error.includes('usage') ? 2 : 1;
  }
  if (args.list) {
    io.out(
      `${Object.entries(signalNames)
        .filter(([k]) => /^SIG[A-Z]+[0-9]*$/.test(k))
        .sort((a, b) => a[1] - b[1])
        .map(([k, v]) => `${String(v).padStart(2)}) ${k}`)
        .join('\n')}\n`,
    );
    return 0;
  }
  let code = 0;
  let procs: ReturnType<typeof nodeProcs> | undefined;
  for (const pid of args.pids) {
    try {
      process.kill(pid, args.signal);
      continue;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code !== 'ESRCH') {
        io.err(`bash: kill: (${pid}) - ${err.code === 'EPERM' ? 'Operation not permitted' : err.message}\n`);
        code = 1;
        continue;
      }
    }
    // No such real process: a containerd shim's (virtual) pid? This node's: the local runner's nodes share the host's /proc, each host numbering its shims alike.
    procs ??= nodeProcs(env, false);
    const socket = virtualShimSocket(procs, pid);
    try {
      if (!socket) throw new Error('No such process');
      await signalShim(socket, args.signal);
    } catch {
      io.err(`bash: kill: (${pid}) - No such process\n`);
      code = 1;
    }
  }
  return code;
};
