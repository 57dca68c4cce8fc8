// The HTTP clients labs type into a container: busybox's `wget` and curl.
// Each request leaves from the pod over a real TCP connection (see
// network.ts dialTcp), so a ClusterIP request in a compose node crosses
// kube-proxy's rules; output and error texts are the tools' own.

import { request, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { defineCommand, type Command } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import { ok, seconds, type Result } from './util.js';

/** The largest body a client keeps (a lab's pages are far smaller; a runaway download must not grow the runtime). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

interface Target {
  host: string;
  port: number;
  path: string;
}

/** Splits `http://host[:port]/path` (scheme optional, as both tools allow). */
export function parseUrl(text: string): Target | undefined {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:') return undefined;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : 80, path: `${u.pathname}${u.search}` };
}

interface Fetched {
  res: IncomingMessage;
  body: Buffer;
}

/** One request over a socket the pod opened. */
function fetchOver(socket: Socket, t: Target, method: string, headers: Record<string, string>, data: string | undefined, timeoutMs: number): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request({ createConnection: () => socket, host: t.host, port: t.port, path: t.path, method, headers: { Host: t.port === 80 ? t.host : `${t.host}:${t.port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY_BYTES) chunks.push(c);
      });
      res.once('end', () => resolve({ res, body: Buffer.concat(chunks) }));
      res.once('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    req.once('error', reject);
    req.end(data);
  });
}

const code = (e: unknown) => (e as NodeJS.ErrnoException).code ?? '';

/** Reads a tool's argv: flags with values, boolean flags, the first non-flag is the URL. */
function args(argv: string[], withValue: Set<string>): { flags: Map<string, string[]>; url: string | undefined } {
  const flags = new Map<string, string[]>();
  let url: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--') && a.includes('=')) {
      const [k, v] = [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)];
      flags.set(k, [...(flags.get(k) ?? []), v]);
    } else if (a.startsWith('-') && a.length > 1) {
      if (withValue.has(a)) flags.set(a, [...(flags.get(a) ?? []), argv[++i] ?? '']);
      else if (!a.startsWith('--') && a.length > 2) {
        // Bundled short flags (-qO- / -sS): each letter, the last one may take the rest or the next word.
        for (const [j, c] of [...a.slice(1)].entries()) {
          const f = `-${c}`;
          if (withValue.has(f)) {
            const rest = a.slice(2 + j);
            flags.set(f, [...(flags.get(f) ?? []), rest.length ? rest : (argv[++i] ?? '')]);
            break;
          }
          flags.set(f, []);
        }
      } else flags.set(a, []);
    } else url ??= a;
  }
  return { flags, url };
}

const WGET_VALUES = new Set(['-O', '-T', '-U', '--header', '-Y', '-P', '--user-agent', '--timeout', '--output-document']);

/** `p`, or an EDEADLINE error after `ms` (a late socket is closed). */
function withDeadline(p: Promise<Socket>, ms: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(Object.assign(new Error('deadline'), { code: 'EDEADLINE' }));
      void p.then(
        (s) => s.destroy(),
        () => undefined,
      );
    }, ms);
    p.then(
      (s) => (clearTimeout(timer), resolve(s)),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
}

/** busybox `wget [-q] [-O FILE] [-S] [--spider] [-T SEC] [--header H] URL`. */
export function wget(proc: ProgramProcess): Command {
  return defineCommand('wget', async (argv, ctx) => {
    const { flags, url } = args(argv, WGET_VALUES);
    if (!url)
      return ok(
        '',
        1,
        'BusyBox v1.37.0 (2024-09-26 21:31:42 UTC) multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\n',
      );
    const quiet = flags.has('-q');
    const t = parseUrl(url);
    if (!t) return ok('', 1, `wget: not an http or ftp url: ${url}\n`);
    const out = flags.get('-O')?.at(-1) ?? flags.get('--output-document')?.at(-1) ?? (t.path.split('?')[0]!.split('/').pop() || 'index.html');
    let err = quiet ? '' : `Connecting to ${t.host}${t.port === 80 ? '' : `:${t.port}`} (${t.host}:${t.port})\n`;
    // busybox's -T (--timeout) alarm covers the connect as well as the reads: a dropped SYN ends as `download timed out`.
    const timeoutMs = seconds((flags.get('-T') ?? flags.get('--timeout'))?.at(-1), 900) * 1000;
    let socket: Socket;
    try {
      socket = await withDeadline(proc.connect(t.host, t.port), timeoutMs);
    } catch (e) {
      if (code(e) === 'ENOTFOUND') return ok('', 1, `wget: bad address '${t.host}'\n`);
      if (code(e) === 'EDEADLINE') return ok('', 1, `${err}wget: download timed out\n`);
      return ok(
        '',
        1,
        `${err}wget: can't connect to remote host (${t.host}): ${code(e) === 'EHOSTUNREACH' ? 'No route to host' : code(e) === 'ETIMEDOUT' ? 'Connection timed out' : 'Connection refused'}\n`,
      );
    }
    const headers: Record<string, string> = { 'User-Agent': flags.get('-U')?.at(-1) ?? 'Wget', Connection: 'close' };
    for (const h of flags.get('--header') ?? []) {
      const i = h.indexOf(':');
      if (i > 0) headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
    }
    let got: Fetched;
    try {
      got = await fetchOver(socket, t, flags.has('--spider') ? 'HEAD' : 'GET', headers, undefined, timeoutMs);
    } catch (e) {
      return ok('', 1, `${err}wget: ${code(e) === 'ETIMEDOUT' ? 'download timed out' : 'error getting response: Connection reset by peer'}\n`);
    }
    const status = `HTTP/${got.res.httpVersion} ${got.res.statusCode} ${got.res.statusMessage}`;
    if (flags.has('-S'))
      err += `  ${status}\n${Object.entries(got.res.headers)
        .map(([k, v]) => `  ${k.replace(/(^|-)\w/g, (m) => m.toUpperCase())}: ${String(v)}\n`)
        .join('')}`;
    if ((got.res.statusCode ?? 0) >= 400) return ok('', 1, `${err}wget: server returned error: ${status}\n`);
    if (flags.has('--spider')) return ok('', 0, quiet ? err : `${err}remote file exists\n`);
    const size = got.body.length;
    const bar = (name: string) => `${name.padEnd(20)} 100% |${'*'.repeat(31)}| ${String(size).padStart(5)}  0:00:00 ETA\n`;
    if (out === '-') return ok(got.body.toString('utf8'), 0, quiet ? err : `${err}writing to stdout\n${bar('-')}written to stdout\n`);
    const path = out.startsWith('/') ? out : `${ctx.cwd.replace(/\/$/, '')}/${out}`;
    await proc.fs.writeFile(path, got.body.toString('utf8'));
    return ok('', 0, quiet ? err : `${err}saving to '${out}'\n${bar(out)}'${out}' saved\n`);
  });
}

const CURL_VALUES = new Set(['-o', '-X', '-H', '-d', '-m', '-A', '-w', '--max-time', '--connect-timeout', '--data', '--header', '--request', '--output', '--user-agent']);

/** curl's progress meter, as it prints to stderr when stdout is not a terminal and -s is not given. */
function meter(size: number): string {
  const n = String(size).padStart(5);
  return `  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n\r100${n}  100${n}    0     0   ${n}      0 --:--:-- --:--:-- --:--:--${n}\n`;
}

/** `curl [-sSfLIiv] [-o FILE] [-X M] [-H H] [-d DATA] [-m SEC] URL`. */
export function curl(proc: ProgramProcess): Command {
  return defineCommand('curl', async (argv, ctx): Promise<Result> => {
    const { flags, url } = args(argv, CURL_VALUES);
    if (argv.includes('--version') || argv.includes('-V'))
      return ok(
        'curl 7.88.1 (x86_64-pc-linux-gnu) libcurl/7.88.1 OpenSSL/3.0.15 zlib/1.2.13\nProtocols: dict file ftp ftps gopher gophers http https imap imaps ldap ldaps mqtt pop3 pop3s rtmp rtsp scp sftp smb smbs smtp smtps telnet tftp\n',
      );
    if (!url) return ok('', 2, "curl: try 'curl --help' or 'curl --manual' for more information\n");
    const silent = flags.has('-s') || flags.has('--silent');
    const showErrors = !silent || flags.has('-S') || flags.has('--show-error');
    const fail = (exit: number, text: string) => ok('', exit, showErrors ? `curl: (${exit}) ${text}\n` : '');
    const t = parseUrl(url);
    if (!t) return fail(1, `Protocol "${url.split(':')[0]}" not supported`);
    let socket: Socket;
    try {
      socket = await proc.connect(t.host, t.port);
    } catch (e) {
      if (code(e) === 'ENOTFOUND') return fail(6, `Could not resolve host: ${t.host}`);
      return fail(7, `Failed to connect to ${t.host} port ${t.port} after 0 ms: ${code(e) === 'EHOSTUNREACH' ? 'No route to host' : "Couldn't connect to server"}`);
    }
    const data = (flags.get('-d') ?? flags.get('--data'))?.join('&');
    const method = (flags.get('-X') ?? flags.get('--request'))?.at(-1) ?? (flags.has('-I') || flags.has('--head') ? 'HEAD' : data !== undefined ? 'POST' : 'GET');
    const headers: Record<string, string> = { 'User-Agent': flags.get('-A')?.at(-1) ?? 'curl/7.88.1', Accept: '*/*' };
    if (data !== undefined) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    for (const h of [...(flags.get('-H') ?? []), ...(flags.get('--header') ?? [])]) {
      const i = h.indexOf(':');
      if (i > 0) headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
    }
    let got: Fetched;
    try {
      got = await fetchOver(socket, t, method, headers, data, seconds((flags.get('-m') ?? flags.get('--max-time'))?.at(-1), 300) * 1000);
    } catch (e) {
      return code(e) === 'ETIMEDOUT' ? fail(28, 'Operation timed out') : fail(56, 'Recv failure: Connection reset by peer');
    }
    const status = got.res.statusCode ?? 0;
    if ((flags.has('-f') || flags.has('--fail')) && status >= 400) return fail(22, `The requested URL returned error: ${status}`);
    const head = `HTTP/${got.res.httpVersion} ${status} ${got.res.statusMessage}\r\n${Object.entries(got.res.headersDistinct)
      .flatMap(([k, vs]) => (vs ?? []).map((v) => `${k.replace(/(^|-)\w/g, (m) => m.toUpperCase())}: ${v}\r\n`))
      .join('')}\r\n`;
    const verbose = flags.has('-v')
      ? `*   Trying ${t.host}:${t.port}...\n* Connected to ${t.host} (${t.host}) port ${t.port}\n> ${method} ${t.path} HTTP/1.1\n> Host: ${t.host}\n> User-Agent: ${headers['User-Agent']}\n> Accept: */*\n>\n< ${head.trimEnd().split('\r\n').join('\n< ')}\n<\n`
      : '';
    const body = method === 'HEAD' ? head : `${flags.has('-i') ? head : ''}${got.body.toString('utf8')}`;
    const progress = silent || flags.has('-v') ? '' : meter(got.body.length);
    const file = (flags.get('-o') ?? flags.get('--output'))?.at(-1);
    if (file !== undefined && file !== '-') {
      await proc.fs.writeFile(file.startsWith('/') ? file : `${ctx.cwd.replace(/\/$/, '')}/${file}`, body);
      return ok('', 0, verbose + progress);
    }
    return ok(body, 0, verbose + progress);
  });
}
