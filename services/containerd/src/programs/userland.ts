// The shell and the command set an image's userland has: busybox and alpine
// images run busybox ash (`sh: foo: not found`, `$0` is `sh`) and have busybox
// applets, Debian-based images bash and coreutils. The interpreter underneath
// speaks bash and knows more commands than either (jq, sqlite3, ...): the
// ones an image lacks answer as a missing command does, and leave /bin.
// Also the applets every image has that the interpreter answers for its own
// sandbox: env and printenv (only exported variables), and busybox's nc.

import type { Socket } from 'node:net';
import { defineCommand, type Command } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import { ok, seconds, type Result } from './util.js';

export type ShellDialect = 'ash' | 'bash';

/** The image's shell: ash where root's login shell is /bin/sh or /bin/ash (busybox, alpine), else bash. */
export function shellDialect(files: Record<string, string>): ShellDialect {
  const id = /^ID="?([a-z]+)/m.exec(files['/etc/os-release'] ?? '')?.[1];
  if (id === 'busybox' || id === 'alpine') return 'ash';
  const root = /^root:[^:]*:0:[^:]*:[^:]*:[^:]*:(.*)$/m.exec(files['/etc/passwd'] ?? '')?.[1];
  return root === '/bin/sh' || root === '/bin/ash' ? 'ash' : 'bash';
}

/** Commands of the interpreter that no image of the catalogue ships. */
const INTERPRETER_ONLY = ['jq', 'rg', 'sqlite3', 'html-to-markdown', 'xan', 'yq', 'help', 'python3', 'python', 'curl'];
/** Commands a Debian image has that busybox has no applet for. */
const NOT_IN_BUSYBOX = ['bash', 'column', 'join', 'file'];
/** busybox applets Debian's base image does not ship (netcat is a package of its own). */
const NOT_IN_DEBIAN = ['nc', 'vi'];

/** The interpreter's commands that are shell builtins, no files in /bin. */
export const SHELL_ONLY_COMMANDS = ['alias', 'unalias', 'history', 'trap', 'help'];

/** The interpreter's commands an image of `dialect` does not have (the image's own programs are added back by the caller). */
export function missingCommands(dialect: ShellDialect): string[] {
  return dialect === 'ash' ? [...INTERPRETER_ONLY, ...NOT_IN_BUSYBOX] : [...INTERPRETER_ONLY, ...NOT_IN_DEBIAN];
}

/** What the shell says for a command it cannot find (exit 127). */
export function notFoundText(dialect: ShellDialect, name: string): string {
  return dialect === 'ash' ? `sh: ${name}: not found\n` : `bash: ${name}: command not found\n`;
}

/** A command the image does not have: the shell's not-found text, 127. */
export function missingCommand(name: string, dialect: ShellDialect): Command {
  return defineCommand(name, async () => ok('', 127, notFoundText(dialect, name)));
}

/** The commands an image of each shell lacks and the env it has, made once: they hold no state, so every container shares them. */
const shared = new Map<ShellDialect, { missing: Command[]; env: Command }>();
/** What dialectCommands answered, by dialect and image programs (a node runs few distinct images). */
const byImage = new Map<string, { hidden: ReadonlySet<string>; commands: Command[] }>();

/**
 * The stateless commands of an image of `dialect` (its missing commands, less
 * the image's own `programs`, and env, printenv), and the command names /bin
 * leaves out: the missing ones and the shell's builtins.
 */
export function dialectCommands(dialect: ShellDialect, programs: readonly string[]): { hidden: ReadonlySet<string>; commands: Command[] } {
  const key = `${dialect}\n${programs.join(' ')}`;
  let r = byImage.get(key);
  if (r) return r;
  let d = shared.get(dialect);
  if (!d) shared.set(dialect, (d = { missing: missingCommands(dialect).map((n) => missingCommand(n, dialect)), env: envCommand(dialect) }));
  const missing = d.missing.filter((c) => !programs.includes(c.name));
  r = { hidden: new Set([...missing.map((c) => c.name), ...SHELL_ONLY_COMMANDS]), commands: [d.env, printenvCommand, ...missing] };
  if (byImage.size < 256) byImage.set(key, r);
  return r;
}

/**
 * busybox ash's texts for what the interpreter reports in bash's words, line
 * by line: a missing command, a redirection that cannot create or open its
 * file, cd, syntax errors; any other `bash: ` prefix becomes `sh: `.
 */
export function ashText(text: string): string {
  if (text.includes('cannot ')) text = busyboxAppletText(text);
  if (!text.includes('bash')) return text;
  return text.replace(/^bash: (.*)$/gm, (_all, rest: string) => {
    let m = /^(.*): command not found$/.exec(rest);
    if (m) return `sh: ${m[1]}: not found`;
    m = /^cd: (.*): (No such file or directory|Not a directory|Permission denied)$/.exec(rest);
    if (m) return `sh: cd: can't cd to ${m[1]}: ${m[2]}`;
    m = /^syntax error: (?:Parse error at \d+:\d+: )?(.*)$/.exec(rest);
    if (m) {
      const tok = /unexpected token `(.*)'/.exec(m[1]!);
      if (tok) return `sh: syntax error: unexpected "${tok[1]}"`;
      if (/EOF|end of file/.test(m[1]!)) return 'sh: syntax error: unexpected end of file';
      return `sh: syntax error: ${m[1]}`;
    }
    m = /^(\/[^:]*|[^:\s]+): (Read-only file system|Permission denied|Is a directory)$/.exec(rest);
    if (m) return `sh: can't create ${m[1]}: ${m[2]}`;
    m = /^(\/[^:]*|[^:\s]+): No such file or directory$/.exec(rest);
    // A command named by its path that is not there.
    if (m && /^\/(usr\/)?(local\/)?s?bin\//.test(m[1]!)) return `sh: ${m[1]}: not found`;
    if (m) return `sh: can't open ${m[1]}: no such file`;
    return `sh: ${rest}`;
  });
}

/**
 * busybox's applets word a refused write their own way (bb_perror_msg): the
 * coreutils lines the interpreter's touch, mkdir and rm print, in busybox's.
 */
function busyboxAppletText(text: string): string {
  return text
    .replace(/^touch: cannot touch '(.*)': (.*)$/gm, 'touch: $1: $2')
    .replace(/^mkdir: cannot create directory '(.*)': (.*)$/gm, "mkdir: can't create directory '$1': $2")
    .replace(/^rm: cannot remove '(.*)': (.*)$/gm, "rm: can't remove '$1': $2");
}

/** Shell variables that are not the environment (just-bash keeps them beside it). */
const SHELL_ONLY = new Set(['IFS', 'OSTYPE', 'MACHTYPE', 'HOSTTYPE', 'OPTIND', 'SHELLOPTS', 'BASHOPTS', 'OLDPWD', '0', '?', '#', '$', '!', '-', '_', 'PPID', 'UID', 'EUID', 'BASHPID', 'SHLVL']);

/** The process environment a command started by the shell gets: exported variables only, none of the runtime's helpers. */
export function processEnv(env: Map<string, string>, exported: Record<string, string> | undefined): [string, string][] {
  const source: [string, string][] = exported ? Object.entries(exported) : [...env];
  return source.filter(([k]) => !SHELL_ONLY.has(k) && !k.startsWith('__kubelab_') && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
}

const BUSYBOX_BANNER = 'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\n';

/** `env [-i] [-u NAME] [NAME=VALUE...] [COMMAND...]`: prints the environment (a command after it is run by the shell that called env). */
export function envCommand(dialect: ShellDialect): Command {
  return defineCommand('env', async (args, ctx) => {
    const vars = new Map(processEnv(ctx.env, ctx.exportedEnv));
    let i = 0;
    for (; i < args.length; i++) {
      const a = args[i]!;
      if (a === '-i' || a === '-' || a === '--ignore-environment') vars.clear();
      else if (a === '-u' || a === '--unset') vars.delete(args[++i] ?? '');
      else if (a === '-0' || a === '--null') continue;
      else if (a.startsWith('-') && a !== '--') {
        return dialect === 'ash'
          ? ok('', 1, `env: unrecognized option '${a}'\n${BUSYBOX_BANNER}Usage: env [-i] [-0] [-u NAME]... [-] [NAME=VALUE]... [PROG ARGS]\n`)
          : ok('', 125, `env: invalid option -- '${a.replace(/^-+/, '')}'\nTry 'env --help' for more information.\n`);
      } else if (a === '--') continue;
      else if (/^[^=]+=/.test(a)) vars.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
      else break;
    }
    const rest = args.slice(i);
    if (rest.length && ctx.exec) {
      const assigns = [...vars].map(([k, v]) => `${k}=${quote(v)}`).join(' ');
      const r = await ctx.exec(`${assigns} ${rest.map(quote).join(' ')}`, { cwd: ctx.cwd, env: Object.fromEntries(vars) });
      return ok(r.stdout, r.exitCode, r.stderr);
    }
    return ok([...vars].map(([k, v]) => `${k}=${v}\n`).join(''));
  });
}

const quote = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** `printenv [NAME...]`: the values of the named variables (1 when one is unset), or the whole environment. */
export const printenvCommand = defineCommand('printenv', async (args, ctx) => {
  const vars = new Map(processEnv(ctx.env, ctx.exportedEnv));
  const names = args.filter((a) => !a.startsWith('-'));
  if (!names.length) return ok([...vars].map(([k, v]) => `${k}=${v}\n`).join(''));
  let out = '';
  let status = 0;
  for (const n of names) {
    const v = vars.get(n);
    if (v === undefined) status = 1;
    else out += `${v}\n`;
  }
  return ok(out, status);
});

/** busybox nc's usage (the official image's build: nc 1.10 compatible options). */
export const NC_USAGE = `${BUSYBOX_BANNER}Usage: nc [OPTIONS] HOST PORT  - connect
nc [OPTIONS] -l -p PORT [HOST] [PORT]  - listen

\t-e PROG\tRun PROG after connect (must be last)
\t-l\tListen mode, for inbound connects
\t-lk\tWith -e, provides persistent server
\t-p PORT\tLocal port
\t-s ADDR\tLocal address
\t-w SEC\tTimeout for connects and final net reads
\t-i SEC\tDelay interval for lines sent
\t-n\tDon't do DNS resolution
\t-u\tUDP mode
\t-b\tAllow broadcasts
\t-v\tVerbose
\t-o FILE\tHex dump traffic
\t-z\tZero-I/O mode (scanning)
`;

interface NcOptions {
  listen: boolean;
  port: number | undefined;
  wait: number | undefined;
  zero: boolean;
  verbose: boolean;
  operands: string[];
}

/** nc's options as getopt reads them (`-lp 8080`, `-w1`); an unknown letter is an error. */
export function parseNcArgs(args: string[]): NcOptions | { error: string } {
  const o: NcOptions = { listen: false, port: undefined, wait: undefined, zero: false, verbose: false, operands: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-') || a === '-') {
      o.operands.push(a);
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if ('pwsieo'.includes(c)) {
        const v = a.length > j + 1 ? a.slice(j + 1) : args[++i];
        if (v === undefined) return { error: `nc: option requires an argument -- '${c}'\n` };
        if (c === 'p') o.port = Number(v);
        if (c === 'w') o.wait = seconds(v, 0);
        break;
      }
      if (c === 'l') o.listen = true;
      else if (c === 'z') o.zero = true;
      else if (c === 'v') o.verbose = true;
      else if (!'knub'.includes(c)) return { error: `nc: invalid option -- '${c}'\n` };
    }
  }
  return o;
}

function ncError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'EHOSTUNREACH':
      return 'No route to host';
    case 'ETIMEDOUT':
      return 'Connection timed out';
    default:
      return e.message;
  }
}

/** Pumps `input` into the socket and collects what comes back until the peer closes, `waitSec` passes quietly after input ends, or `signal` aborts. */
function exchange(socket: Socket, input: Buffer, waitSec: number | undefined, signal: AbortSignal | undefined, timeScale: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    const arm = () => {
      if (waitSec === undefined) return;
      clearTimeout(timer);
      timer = setTimeout(done, (waitSec * 1000) / timeScale);
    };
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      arm();
    });
    socket.once('close', done);
    socket.once('error', done);
    signal?.addEventListener('abort', done, { once: true });
    if (input.length) socket.write(input);
    arm();
  });
}

/**
 * busybox `nc`: `nc HOST PORT` sends its stdin and prints what the peer
 * sends back until the peer closes (or -w SEC after the last data); `-z`
 * only connects; `nc -l -p PORT` serves one connection: prints what the
 * client sends and answers with its own stdin.
 */
export function nc(proc: ProgramProcess): Command {
  return defineCommand('nc', async (args, ctx): Promise<Result> => {
    const o = parseNcArgs(args);
    if ('error' in o) return ok('', 1, `${o.error}${NC_USAGE}`);
    const input = Buffer.from(ctx.stdin.toString(), 'latin1');
    if (o.listen) {
      if (o.port === undefined || !Number.isInteger(o.port)) return ok('', 1, NC_USAGE);
      let accepted!: (s: Socket) => void;
      const conn = new Promise<Socket>((r) => (accepted = r));
      let listener;
      try {
        listener = await proc.listen(o.port, { tcp: (s) => accepted(s) });
      } catch (e) {
        return ok('', 1, `nc: bind: ${(e as Error).message.includes('EADDRINUSE') ? 'Address in use' : (e as Error).message}\n`);
      }
      const socket = await Promise.race([conn, proc.killed.then(() => undefined), abortOf(ctx.signal)]);
      if (!socket) {
        await proc.unlisten(listener);
        return ok('', 137);
      }
      // Closing the port ends its connections: only once this one is done.
      const got = await exchange(socket, input, o.wait, ctx.signal, proc.timeScale);
      await proc.unlisten(listener);
      return ok(got.toString('latin1'));
    }
    const [host, port] = o.operands;
    if (host === undefined || port === undefined || !/^\d+$/.test(port)) return ok('', 1, NC_USAGE);
    let socket: Socket;
    try {
      socket = await proc.connect(host, Number(port));
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return ok('', 1, `nc: bad address '${host}'\n`);
      return ok('', 1, `nc: can't connect to remote host (${host}): ${ncError(err)}\n`);
    }
    if (o.zero) {
      socket.destroy();
      return ok('', 0, o.verbose ? `${host} (${host}:${port}) open\n` : '');
    }
    const got = await exchange(socket, input, o.wait, ctx.signal, proc.timeScale);
    return ok(got.toString('latin1'));
  });
}

function abortOf(signal: AbortSignal | undefined): Promise<undefined> {
  return new Promise((r) => {
    if (!signal) return;
    if (signal.aborted) r(undefined);
    signal.addEventListener('abort', () => r(undefined), { once: true });
  });
}

/**
 * `busybox [APPLET [ARGS...]]`, `busybox --list`: the multi-call binary itself
 * (busybox and alpine images). Its applets are the commands the image's /bin
 * and /usr/bin hold, so the list never names one that does not run.
 */
export const busyboxCommand = defineCommand('busybox', async (args, ctx) => {
  const applets = async (): Promise<string[]> => {
    if (!ctx.exec) return [];
    const r = await ctx.exec('ls -1 /bin /usr/bin /sbin /usr/sbin 2>/dev/null', { cwd: '/' });
    return [...new Set(r.stdout.split('\n').filter((l) => l && !l.endsWith(':') && l !== 'busybox'))].sort();
  };
  const [first, ...rest] = args;
  if (first === '--list' || first === '--list-full') return ok((await applets()).map((a) => `${a}\n`).join(''));
  if (first === undefined || first === '--help') {
    const names = await applets();
    const usage =
      `${BUSYBOX_BANNER.trimEnd()}\nBusyBox is copyrighted by many authors between 1998-2015.\nLicensed under GPLv2. See source distribution for detailed\ncopyright notices.\n\n` +
      'Usage: busybox [function [arguments]...]\n   or: busybox --list[-full]\n   or: busybox --show SCRIPT\n   or: busybox --install [-s] [DIR]\n   or: function [arguments]...\n\n' +
      `Currently defined functions:\n\t${names.join(', ')}\n`;
    return ok(usage);
  }
  if (!(await applets()).includes(first) || !ctx.exec) return ok('', 127, `${first}: applet not found\n`);
  const r = await ctx.exec([first, ...rest].map(quote).join(' '), { cwd: ctx.cwd });
  return ok(r.stdout, r.exitCode, r.stderr);
});
