// The database and broker images' servers: each logs the lines its real
// server logs when it is ready (what `kubectl logs` labs wait for), listens
// on its port, and answers its clients' readiness checks (pg_isready,
// mysqladmin ping). They run no queries: a client that speaks their wire
// protocol gets a clear error saying so.

import type { Socket } from 'node:net';
import { defineCommand, type Command } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import { ok, option, seconds, untilSignal, type Result } from './util.js';

type Env = () => Record<string, string>;

/** Serves `port` with `onSocket` until TERM or KILL; `ready` logs after the bind, `stopping` on TERM. */
async function serve(proc: ProgramProcess, port: number, onSocket: (s: Socket) => void, ready: () => void, stopping: () => void, bindFailed: (e: Error) => Result): Promise<Result> {
  let listener;
  try {
    listener = await proc.listen(port, { tcp: onSocket });
  } catch (e) {
    return bindFailed(e as Error);
  }
  ready();
  const sig = await untilSignal(proc, true);
  if (sig === 'TERM') stopping();
  await proc.unlisten(listener);
  return ok('', sig === 'TERM' ? 0 : 137);
}

/** How a client program reports a failed connection (`connect ECONNREFUSED` → `Connection refused`). */
function refused(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOTFOUND' ? 'Name or service not known' : code === 'EHOSTUNREACH' ? 'No route to host' : 'Connection refused';
}

async function reachable(proc: ProgramProcess, host: string, port: number): Promise<true | string> {
  try {
    const s = await proc.connect(host, port);
    s.destroy();
    return true;
  } catch (e) {
    return refused(e);
  }
}

// --- PostgreSQL

const pgTime = (d = new Date()) => `${d.toISOString().replace('T', ' ').slice(0, 23)} UTC`;

/** A PostgreSQL ErrorResponse message (the wire protocol's 'E'). */
function pgError(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, 'utf8');
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

export function postgres(proc: ProgramProcess, env: Env): Command {
  return defineCommand('postgres', async (args) => {
    const version = env().PG_VERSION ?? '17.2-1.pgdg120+1';
    const short = version.split('-')[0]!;
    if (args.includes('--version') || args.includes('-V')) return ok(`postgres (PostgreSQL) ${short} (Debian ${version})\n`);
    const port = seconds(option(args, '-p') ?? env().PGPORT, 5432);
    const log = (pid: number, text: string) => proc.write('stderr', `${pgTime()} [${pid}] LOG:  ${text}\n`);
    return serve(
      proc,
      port,
      (socket) =>
        socket.once('data', (first: Buffer) => {
          // An SSLRequest (code 80877103) is declined with 'N'; the startup message that follows gets the error.
          if (first.length >= 8 && first.readInt32BE(4) === 80877103) {
            socket.write('N');
            socket.once('data', () => socket.end(pgError('0A000', "kubelab's simulated PostgreSQL accepts connections but runs no queries")));
          } else socket.end(pgError('0A000', "kubelab's simulated PostgreSQL accepts connections but runs no queries"));
        }),
      () => {
        log(1, `starting PostgreSQL ${short} (Debian ${version}) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit`);
        log(1, `listening on IPv4 address "0.0.0.0", port ${port}`);
        log(1, `listening on IPv6 address "::", port ${port}`);
        log(1, `listening on Unix socket "/var/run/postgresql/.s.PGSQL.${port}"`);
        log(29, `database system was shut down at ${pgTime()}`);
        log(1, 'database system is ready to accept connections');
      },
      () => {
        log(1, 'received fast shutdown request');
        log(1, 'aborting any active transactions');
        log(1, 'database system is shut down');
      },
      () => ok('', 1, `${pgTime()} [1] LOG:  could not bind IPv4 address "0.0.0.0": Address already in use\n${pgTime()} [1] FATAL:  could not create any TCP/IP sockets\n`),
    );
  });
}

/** `pg_isready [-h host] [-p port]`: exit 0 accepting, 2 no response (as upstream). */
export function pgIsready(proc: ProgramProcess, env: Env): Command {
  return defineCommand('pg_isready', async (args) => {
    if (args.includes('--version') || args.includes('-V')) return ok(`pg_isready (PostgreSQL) ${(env().PG_VERSION ?? '17.2').split('-')[0]}\n`);
    const host = option(args, '--host', '-h');
    const port = seconds(option(args, '--port', '-p'), 5432);
    const where = `${host ?? '/var/run/postgresql'}:${port}`;
    const quiet = args.includes('-q') || args.includes('--quiet');
    const up = (await reachable(proc, host ?? '127.0.0.1', port)) === true;
    return ok(quiet ? '' : `${where} - ${up ? 'accepting connections' : 'no response'}\n`, up ? 0 : 2);
  });
}

export function psql(env: Env): Command {
  return defineCommand('psql', async (args) => {
    const version = env().PG_VERSION ?? '17.2-1.pgdg120+1';
    if (args.includes('--version') || args.includes('-V')) return ok(`psql (PostgreSQL) ${version.split('-')[0]} (Debian ${version})\n`);
    return ok('', 2, "psql: error: kubelab's simulated PostgreSQL runs no queries (pg_isready checks it is up)\n");
  });
}

// --- MySQL

const mysqlTime = (d = new Date()) => `${d.toISOString().slice(0, 23)}000Z`;
const mysqlVersion = (env: Record<string, string>) => (env.MYSQL_VERSION ?? '8.4.3-1.el9').split('-')[0]!;

/** A MySQL ERR_Packet as the server's first packet (instead of the handshake). */
function mysqlError(code: number, state: string, message: string): Buffer {
  const body = Buffer.concat([Buffer.from([0xff, code & 0xff, code >> 8]), Buffer.from(`#${state}${message}`, 'utf8')]);
  const head = Buffer.from([body.length & 0xff, (body.length >> 8) & 0xff, body.length >> 16, 0]);
  return Buffer.concat([head, body]);
}

export function mysqld(proc: ProgramProcess, env: Env): Command {
  return defineCommand('mysqld', async (args) => {
    const version = mysqlVersion(env());
    if (args.includes('--version') || args.includes('-V')) return ok(`/usr/sbin/mysqld  Ver ${version} for Linux on x86_64 (MySQL Community Server - GPL)\n`);
    const port = seconds(option(args, '--port', '-P'), 3306);
    const log = (thread: number, code: string, sub: string, text: string) => proc.write('stdout', `${mysqlTime()} ${thread} [System] [${code}] [${sub}] ${text}\n`);
    log(0, 'MY-015015', 'Server', 'MySQL Server - start.');
    log(0, 'MY-010116', 'Server', `/usr/sbin/mysqld (mysqld ${version}) starting as process 1`);
    log(1, 'MY-013576', 'InnoDB', 'InnoDB initialization has started.');
    log(1, 'MY-013577', 'InnoDB', 'InnoDB initialization has ended.');
    return serve(
      proc,
      port,
      (socket) => socket.end(mysqlError(1045, '28000', "kubelab's simulated MySQL accepts connections but runs no queries")),
      () => log(0, 'MY-010931', 'Server', `/usr/sbin/mysqld: ready for connections. Version: '${version}'  socket: '/var/run/mysqld/mysqld.sock'  port: ${port}  MySQL Community Server - GPL.`),
      () => {
        log(0, 'MY-013172', 'Server', `Received SHUTDOWN from user <via user signal>. Shutting down mysqld (Version: ${version}).`);
        log(0, 'MY-010910', 'Server', `/usr/sbin/mysqld: Shutdown complete (mysqld ${version})  MySQL Community Server - GPL.`);
      },
      () => ok('', 1, `${mysqlTime()} 0 [ERROR] [MY-010262] [Server] Can't start server: Bind on TCP/IP port: Address already in use\n`),
    );
  });
}

/** `mysqladmin ping|version [-h host] [-P port]`. */
export function mysqladmin(proc: ProgramProcess, env: Env): Command {
  return defineCommand('mysqladmin', async (args) => {
    const version = mysqlVersion(env());
    if (args.includes('--version') || args.includes('-V')) return ok(`mysqladmin  Ver ${version} for Linux on x86_64 (MySQL Community Server - GPL)\n`);
    const host = option(args, '--host', '-h') ?? args.find((a) => a.startsWith('-h') && a.length > 2)?.slice(2);
    const port = seconds(option(args, '--port', '-P'), 3306);
    const up = await reachable(proc, host ?? '127.0.0.1', port);
    if (up !== true) {
      const target = host && host !== 'localhost' ? `'${host}:${port}'` : "'localhost'";
      const why = host && host !== 'localhost' ? `Can't connect to MySQL server on '${host}:${port}' (111)` : "Can't connect to local MySQL server through socket '/var/run/mysqld/mysqld.sock' (2)";
      return ok('', 1, `mysqladmin: connect to server at ${target} failed\nerror: '${why}'\n`);
    }
    if (args.includes('ping')) return ok('mysqld is alive\n');
    return ok(`mysqladmin  Ver ${version} for Linux on x86_64 (MySQL Community Server - GPL)\nServer version\t\t${version}\n`);
  });
}

export function mysqlClient(env: Env): Command {
  return defineCommand('mysql', async (args) => {
    if (args.includes('--version') || args.includes('-V')) return ok(`mysql  Ver ${mysqlVersion(env())} for Linux on x86_64 (MySQL Community Server - GPL)\n`);
    return ok('', 1, "ERROR 1045 (28000): kubelab's simulated MySQL runs no queries (mysqladmin ping checks it is up)\n");
  });
}

// --- MongoDB

export function mongod(proc: ProgramProcess, env: Env): Command {
  return defineCommand('mongod', async (args) => {
    const version = env().MONGO_VERSION ?? '8.0.4';
    if (args.includes('--version'))
      return ok(
        `db version v${version}\nBuild Info: {\n    "version": "${version}",\n    "openSSLVersion": "OpenSSL 3.0.13 30 Jan 2024",\n    "environment": {\n        "distarch": "x86_64",\n        "target_arch": "x86_64"\n    }\n}\n`,
      );
    const port = seconds(option(args, '--port'), 27017);
    const log = (c: string, id: number, ctx: string, msg: string, attr: Record<string, unknown> = {}) =>
      proc.write('stdout', `${JSON.stringify({ t: { $date: new Date().toISOString().replace('Z', '+00:00') }, s: 'I', c, id, ctx, msg, attr })}\n`);
    log('CONTROL', 23285, 'main', "Automatically disabling TLS 1.0, to force-enable TLS 1.0 specify --sslDisabledProtocols 'none'");
    log('CONTROL', 4615611, 'initandlisten', 'MongoDB starting', {
      pid: 1,
      port,
      dbPath: '/data/db',
      architecture: '64-bit',
      host: (await proc.fs.readFile('/etc/hostname').catch(() => 'localhost')).trim(),
    });
    log('CONTROL', 23403, 'initandlisten', 'Build Info', { buildInfo: { version } });
    return serve(
      proc,
      port,
      (socket) => socket.on('data', () => socket.destroy()),
      () => {
        log('NETWORK', 23015, 'listener', 'Listening on', { address: '0.0.0.0' });
        log('NETWORK', 23016, 'listener', 'Waiting for connections', { port, ssl: 'off' });
      },
      () => log('CONTROL', 23377, 'SignalHandler', 'Received signal', { signal: 15, error: 'Terminated' }),
      () => ok('', 48),
    );
  });
}

// --- RabbitMQ

export function rabbitmqServer(proc: ProgramProcess, env: Env): Command {
  return defineCommand('rabbitmq-server', async () => {
    const version = env().RABBITMQ_VERSION ?? '4.0.4';
    const log = (text: string) => proc.write('stdout', `${new Date().toISOString().replace('T', ' ').replace('Z', '000+00:00')} [info] <0.254.0> ${text}\n`);
    log('Starting RabbitMQ ' + version + ' on Erlang 27.2 [jit]');
    log(' node           : rabbit@' + (await proc.fs.readFile('/etc/hostname').catch(() => 'localhost')).trim());
    log(' home dir       : /var/lib/rabbitmq');
    return serve(
      proc,
      5672,
      (socket) => socket.once('data', () => socket.end('AMQP\x00\x00\x09\x01')),
      () => {
        log('started TCP listener on [::]:5672');
        log('Server startup complete; 0 plugins started.');
      },
      () => log('RabbitMQ is asked to stop...'),
      () => ok('', 1),
    );
  });
}

// --- memcached

/** memcached's -m default: 64 MB of item memory. */
const MEMCACHED_LIMIT_BYTES = 64 * 1024 * 1024;

/** The memcached text protocol over one keyspace; pure but for the socket it answers. */
export class MemcachedStore {
  private readonly items = new Map<string, { flags: string; data: string }>();
  private bytes = 0;

  get usedBytes(): number {
    return this.bytes;
  }

  /** Handles one command line (and its data block for storage commands); returns the reply, or undefined for noreply. */
  command(line: string, data: string | undefined, version: string): string | undefined {
    const [cmd, ...a] = line.trim().split(/\s+/);
    const reply = (r: string) => (a[a.length - 1] === 'noreply' ? undefined : r);
    switch (cmd) {
      case 'set':
      case 'add':
      case 'replace': {
        const [key, flags] = a;
        if (key === undefined || flags === undefined || data === undefined) return 'ERROR\r\n';
        const exists = this.items.has(key);
        if ((cmd === 'add' && exists) || (cmd === 'replace' && !exists)) return reply('NOT_STORED\r\n');
        const size = key.length + data.length + 48;
        if (this.bytes + size > MEMCACHED_LIMIT_BYTES) return 'SERVER_ERROR out of memory storing object\r\n';
        this.delete(key);
        this.items.set(key, { flags, data });
        this.bytes += size;
        return reply('STORED\r\n');
      }
      case 'get':
      case 'gets':
        return `${a
          .map((k) => [k, this.items.get(k)] as const)
          .flatMap(([k, it]) => (it ? [`VALUE ${k} ${it.flags} ${Buffer.byteLength(it.data)}\r\n${it.data}\r\n`] : []))
          .join('')}END\r\n`;
      case 'delete':
        return reply(this.delete(a[0] ?? '') ? 'DELETED\r\n' : 'NOT_FOUND\r\n');
      case 'incr':
      case 'decr': {
        const it = this.items.get(a[0] ?? '');
        if (!it) return reply('NOT_FOUND\r\n');
        const by = Number(a[1]);
        if (!/^\d+$/.test(it.data) || !Number.isSafeInteger(by)) return 'CLIENT_ERROR cannot increment or decrement non-numeric value\r\n';
        it.data = String(Math.max(0, Number(it.data) + (cmd === 'incr' ? by : -by)));
        return reply(`${it.data}\r\n`);
      }
      case 'flush_all':
        this.items.clear();
        this.bytes = 0;
        return reply('OK\r\n');
      case 'version':
        return `VERSION ${version}\r\n`;
      case 'stats':
        return `STAT pid 1\r\nSTAT version ${version}\r\nSTAT curr_items ${this.items.size}\r\nSTAT bytes ${this.bytes}\r\nSTAT limit_maxbytes ${MEMCACHED_LIMIT_BYTES}\r\nEND\r\n`;
      default:
        return 'ERROR\r\n';
    }
  }

  private delete(key: string): boolean {
    const it = this.items.get(key);
    if (!it) return false;
    this.bytes -= key.length + it.data.length + 48;
    this.items.delete(key);
    return true;
  }
}

const STORAGE = new Set(['set', 'add', 'replace']);
/** Longest line or data block a connection may buffer (memcached's item size max is 1 MB). */
const MAX_BUFFER = 1024 * 1024 + 1024;

export function memcached(proc: ProgramProcess, env: Env): Command {
  return defineCommand('memcached', async (args) => {
    const version = env().MEMCACHED_VERSION ?? '1.6.34';
    if (args.includes('-V') || args.includes('--version')) return ok(`memcached ${version}\n`);
    if (args.includes('-h') || args.includes('--help'))
      return ok(`memcached ${version}\n-p, --port=<num>          TCP port to listen on (default: 11211)\n-m, --memory-limit=<num>  item memory in megabytes (default: 64)\n`);
    const store = new MemcachedStore();
    const port = seconds(option(args, '--port', '-p'), 11211);
    return serve(
      proc,
      port,
      (socket) => {
        let buf = '';
        socket.on('data', (chunk: Buffer) => {
          buf += chunk.toString('latin1');
          if (buf.length > MAX_BUFFER) return void socket.end('SERVER_ERROR object too large for cache\r\n');
          for (;;) {
            const nl = buf.indexOf('\r\n');
            if (nl < 0) return;
            const line = buf.slice(0, nl);
            const [cmd, , , , bytes] = line.split(/\s+/);
            let data: string | undefined;
            let used = nl + 2;
            if (STORAGE.has(cmd ?? '')) {
              const n = Number(bytes);
              if (!Number.isSafeInteger(n) || n < 0) {
                socket.write('CLIENT_ERROR bad command line format\r\n');
                buf = buf.slice(used);
                continue;
              }
              if (buf.length < used + n + 2) return;
              data = buf.slice(used, used + n);
              used += n + 2;
            }
            buf = buf.slice(used);
            if (cmd === 'quit') return void socket.end();
            const r = store.command(line, data, version);
            proc.allocatedBytes = store.usedBytes;
            if (r !== undefined) socket.write(r, 'latin1');
          }
        });
      },
      () => {},
      () => {},
      () => ok('', 71, `failed to listen on TCP port ${port}: Address already in use\n`),
    );
  });
}
