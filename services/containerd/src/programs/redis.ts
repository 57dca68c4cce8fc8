// The redis image's programs: redis-server speaking RESP on its port with
// Redis' startup log, and redis-cli sending one command (or each line of
// its stdin) over a real TCP connection from the pod.

import type { Socket } from 'node:net';
import { defineCommand, type Command } from 'just-bash';
import { TTY_VAR, type ProgramProcess, type Terminal } from '../program-process.js';
import { RedisStore } from './redis-store.js';
import { RequestReader, decodeReply, encode, encodeCommand, error, formatRaw, formatTty, simple, type RespValue } from './resp.js';
import { ok, option, seconds, untilSignal, type Result } from './util.js';
import { readLine } from './vi.js';

/** `1:M 02 Dec 2026 11:40:00.123 * ` — Redis' log line prefix (pid, role, time, level). */
function logPrefix(role: 'C' | 'M', level: '*' | '#', d = new Date()): string {
  const mon = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `1:${role} ${p(d.getUTCDate())} ${mon} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)} ${level} `;
}

export function redisServer(proc: ProgramProcess, env: () => Record<string, string>): Command {
  return defineCommand('redis-server', async (args) => {
    const version = env().REDIS_VERSION ?? '7.4.1';
    if (args.includes('--version') || args.includes('-v')) return ok(`Redis server v=${version} sha=00000000:0 malloc=jemalloc-5.3.0 bits=64 build=c7cd8b1e2c4ae3e9\n`);
    const port = seconds(option(args, '--port'), 6379);
    const clients = new Set<Socket>();
    const startedAtMs = Date.now();
    const store = new RedisStore({ version, port, startedAtMs, connectedClients: () => clients.size });
    const log = (role: 'C' | 'M', line: string, level: '*' | '#' = '*') => proc.write('stdout', `${logPrefix(role, level)}${line}\n`);
    log('C', 'oO0OoO0OoO0Oo Redis is starting oO0OoO0OoO0Oo');
    log('C', `Redis version=${version}, bits=64, commit=00000000, modified=0, pid=1, just started`);
    if (!args.some((a) => !a.startsWith('-'))) log('C', 'Warning: no config file specified, using the default config. In order to specify a config file use redis-server /path/to/redis.conf', '#');
    let listener;
    try {
      listener = await proc.listen(port, {
        tcp: (socket) => {
          clients.add(socket);
          socket.once('close', () => clients.delete(socket));
          const reader = new RequestReader();
          socket.on('data', (chunk: Buffer) => {
            try {
              reader.push(chunk);
              for (let req = reader.next(); req; req = reader.next()) {
                if (req[0]?.toLowerCase() === 'quit') {
                  socket.end(encode(simple('OK')));
                  return;
                }
                const reply = store.exec(req, startedAtMs + (Date.now() - startedAtMs) * proc.timeScale);
                proc.allocatedBytes = store.usedBytes;
                socket.write(encode(reply));
              }
            } catch (e) {
              socket.end(encode(error(`ERR ${(e as Error).message}`)));
            }
          });
        },
      });
    } catch (e) {
      log('M', `Warning: Could not create server TCP listening socket *:${port}: bind: ${(e as Error).message}`, '#');
      log('M', `Failed listening on port ${port} (tcp), aborting.`, '#');
      return ok('', 1);
    }
    log('M', 'monotonic clock: POSIX clock_gettime');
    log('M', `Running mode=standalone, port=${port}.`);
    log('M', 'Server initialized');
    log('M', 'Ready to accept connections tcp');
    const sig = await untilSignal(proc, true);
    if (sig === 'TERM') {
      log('M', 'Received SIGTERM scheduling shutdown...', '#');
      log('M', 'User requested shutdown...', '#');
      log('M', 'Redis is now ready to exit, bye bye...', '#');
    }
    for (const c of clients) c.destroy();
    await proc.unlisten(listener);
    return ok('', sig === 'TERM' ? 0 : 137);
  });
}

/** Why a connection failed, in the words of getaddrinfo/strerror that redis-cli prints. */
function connectError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ENOTFOUND':
      return 'Name or service not known';
    case 'EHOSTUNREACH':
      return 'No route to host';
    case 'ETIMEDOUT':
      return 'Connection timed out';
    default:
      return e.message;
  }
}

/** Sends each command and collects its reply, in order, over one connection. */
async function roundTrips(socket: Socket, commands: string[][]): Promise<RespValue[]> {
  const replies: RespValue[] = [];
  let buf = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (let r = decodeReply(buf); r; r = decodeReply(buf)) {
        replies.push(r.value);
        buf = buf.subarray(r.end);
        if (replies.length === commands.length) {
          socket.end();
          resolve(replies);
          return;
        }
      }
    });
    socket.once('error', reject);
    socket.once('close', () => resolve(replies));
    for (const c of commands) socket.write(encodeCommand(c));
  });
}

/**
 * redis-cli's prompt on a terminal: `host:port> `, each line one command
 * whose reply prints as on a terminal; `quit`/`exit`, ^C or ^D end it. When
 * the server cannot be reached it says so and the prompt is `not connected> `;
 * each command tries again.
 */
async function redisRepl(proc: ProgramProcess, term: Terminal, host: string, port: number): Promise<Result> {
  let socket: Socket | undefined;
  const connect = async (): Promise<boolean> => {
    try {
      socket = await proc.connect(host, port);
      socket.once('close', () => (socket = undefined));
      return true;
    } catch (e) {
      term.write(`Could not connect to Redis at ${host}:${port}: ${connectError(e as NodeJS.ErrnoException)}\r\n`);
      return false;
    }
  };
  await connect();
  const keys: string[] = [];
  try {
    for (;;) {
      const line = await readLine(term, socket ? `${host}:${port}> ` : 'not connected> ', keys);
      if (line === undefined) return ok();
      const words = splitCliLine(line);
      if (!words.length) continue;
      const verb = words[0]!.toLowerCase();
      if (verb === 'quit' || verb === 'exit') return ok();
      if (!socket && !(await connect())) continue;
      const s = socket!;
      const [reply] = await oneRoundTrip(s, words).catch(() => [] as RespValue[]);
      if (reply === undefined) {
        term.write('Error: Server closed the connection\r\n');
        socket = undefined;
        continue;
      }
      term.write(formatTty(reply).replace(/\r?\n/g, '\r\n'));
    }
  } finally {
    socket?.destroy();
  }
}

/** One command's reply on a connection that stays open. */
function oneRoundTrip(socket: Socket, command: string[]): Promise<RespValue[]> {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const r = decodeReply(buf);
      if (!r) return;
      done();
      resolve([r.value]);
    };
    const onClose = () => {
      done();
      resolve([]);
    };
    const onError = (e: Error) => {
      done();
      reject(e);
    };
    const done = () => {
      socket.off('data', onData);
      socket.off('close', onClose);
      socket.off('error', onError);
    };
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onError);
    socket.write(encodeCommand(command));
  });
}

/** Splits a line of redis-cli input as its REPL does: words, with "double" and 'single' quotes. */
export function splitCliLine(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3]!));
  return out;
}

/** `redis-cli [-h host] [-p port] [--raw|--no-raw] [cmd args...]`; without a command it runs each line of stdin. */
export function redisCli(proc: ProgramProcess, env: () => Record<string, string>): Command {
  return defineCommand('redis-cli', async (args, ctx) => {
    const version = env().REDIS_VERSION ?? '7.4.1';
    if (args.includes('--version') || args.includes('-v')) return ok(`redis-cli ${version}\n`);
    let host = '127.0.0.1';
    let port = 6379;
    let tty = false;
    let i = 0;
    for (; i < args.length && args[i]!.startsWith('-'); i++) {
      const a = args[i]!;
      if (a === '-h') host = args[++i] ?? host;
      else if (a === '-p') port = seconds(args[++i], port);
      else if (a === '-a' || a === '-n') i++;
      else if (a === '--no-raw') tty = true;
      else if (a === '--raw') tty = false;
    }
    // The first word that is not an option starts the command.
    const words = args.slice(i);
    const term = words.length ? undefined : proc.terminal(ctx.env.get(TTY_VAR));
    if (term) return redisRepl(proc, term, host, port);
    const stdin = ctx.stdin.toString();
    const commands = words.length
      ? [words]
      : stdin
          .split('\n')
          .map(splitCliLine)
          .filter((c) => c.length > 0);
    if (!commands.length) return ok();
    let socket: Socket;
    try {
      socket = await proc.connect(host, port);
    } catch (e) {
      return ok('', 1, `Could not connect to Redis at ${host}:${port}: ${connectError(e as NodeJS.ErrnoException)}\n`);
    }
    const replies = await roundTrips(socket, commands).catch(() => [] as RespValue[]);
    const out = replies.map((r) => (tty ? formatTty(r) : formatRaw(r))).join('');
    const failed = replies.length < commands.length;
    return ok(out, failed ? 1 : 0, failed ? 'Error: Server closed the connection\n' : '');
  });
}
