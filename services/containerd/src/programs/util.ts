// What the simulated programs share: their result shape, waiting for a
// signal, argument parsing and the common log format of web servers.

import type { ProgramProcess } from '../program-process.js';

export type Result = { stdout: string; stderr: string; exitCode: number };
export const ok = (stdout = '', exitCode = 0, stderr = ''): Result => ({ stdout, stderr, exitCode });
export const MiB = 1024 * 1024;

/** Resolves on TERM (when `handleTerm`) or on KILL; reports which. */
export function untilSignal(proc: ProgramProcess, handleTerm: boolean): Promise<'TERM' | 'KILL'> {
  return new Promise((resolve) => {
    const off = handleTerm ? proc.onTerm(() => resolve('TERM')) : () => {};
    void proc.killed.then(() => {
      off();
      resolve('KILL');
    });
  });
}

/** A non-negative number argument, else `def`. */
export function seconds(arg: string | undefined, def: number): number {
  const n = Number(arg);
  return Number.isFinite(n) && n >= 0 ? n : def;
}

/** A long option's value: `--port 80`, `--port=80` (and `-p 80` when `short` is given). */
export function option(args: readonly string[], name: string, short?: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === name || (short !== undefined && a === short)) return args[i + 1];
    if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
  }
  return undefined;
}

/** The Common Log Format's time: `02/Dec/2026:11:40:00 +0000`. */
export function clf(d: Date): string {
  const mon = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${mon}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

export const CONTENT_TYPES: Record<string, string> = { html: 'text/html', htm: 'text/html', txt: 'text/plain', json: 'application/json', css: 'text/css', js: 'application/javascript' };

/** The client address a server logs (IPv4-mapped IPv6 unwrapped). */
export function peerAddress(addr: string | undefined): string {
  return addr?.replace(/^::ffff:/, '') ?? '-';
}

/** The pod's own IP as its /etc/hosts names it for the hostname (what servers print as "using 10.244.1.5"). */
export async function podAddress(proc: ProgramProcess): Promise<string> {
  try {
    const hostname = (await proc.fs.readFile('/etc/hostname')).trim();
    const line = (await proc.fs.readFile('/etc/hosts')).split('\n').find((l) => l.split(/\s+/).slice(1).includes(hostname));
    return line?.split(/\s+/)[0] || '127.0.0.1';
  } catch {
    return '127.0.0.1';
  }
}
