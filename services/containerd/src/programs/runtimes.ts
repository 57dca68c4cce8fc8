// The language images' interpreters and Traefik: what a tutorial runs in
// them. python serves `-m http.server` (directory listings, its access
// log), node serves the one-line `http.createServer(...).listen(port)`
// server, and every one answers its version command. Arbitrary programs are
// beyond a simulated runtime: they fail with a clear message instead.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineCommand, type Command } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import { quoteArg } from '../shell.js';
import { CONTENT_TYPES, ok, peerAddress, seconds, untilSignal } from './util.js';

type Env = () => Record<string, string>;

/** Serves HTTP on `port` until a signal; the exit status a killed or stopped server gets. */
async function serveHttp(proc: ProgramProcess, port: number, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ stdout: string; stderr: string; exitCode: number } | undefined> {
  let listener;
  try {
    listener = await proc.listen(port, handler);
  } catch {
    return undefined;
  }
  const sig = await untilSignal(proc, true);
  await proc.unlisten(listener);
  return ok('', sig === 'TERM' ? 143 : 137);
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `[02/Dec/2026 11:40:00]`, http.server's log time. */
function pyTime(d = new Date()): string {
  const mon = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${mon}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

/** `python -m http.server [port] [--bind ADDR] [--directory DIR]`. */
async function httpServer(proc: ProgramProcess, args: string[], cwd: string) {
  let port = 8000;
  let dir = cwd;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--directory' || a === '-d') dir = args[++i] ?? dir;
    else if (a === '--bind' || a === '-b') i++;
    else if (/^\d+$/.test(a)) port = Number(a);
  }
  const fs = proc.fs;
  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const full = `${dir.replace(/\/$/, '')}${path}`;
    let status = 200;
    let body: string;
    let type = 'text/html; charset=utf-8';
    try {
      if (path.includes('..')) throw new Error('traversal');
      const st = await fs.stat(full);
      if (st.isDirectory) {
        const index = `${full.replace(/\/$/, '')}/index.html`;
        if (await fs.exists(index)) body = await fs.readFile(index);
        else {
          const names = (await fs.readdir(full)).sort();
          const items = await Promise.all(names.map(async (n) => ((await fs.stat(`${full.replace(/\/$/, '')}/${n}`)).isDirectory ? `${n}/` : n)));
          const title = `Directory listing for ${escapeHtml(path)}`;
          body = `<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n</head>\n<body>\n<h1>${title}</h1>\n<hr>\n<ul>\n${items.map((n) => `<li><a href="${encodeURI(n)}">${escapeHtml(n)}</a></li>\n`).join('')}</ul>\n<hr>\n</body>\n</html>\n`;
        }
      } else {
        body = await fs.readFile(full);
        type = CONTENT_TYPES[full.slice(full.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
      }
    } catch {
      status = 404;
      body = `<!DOCTYPE HTML>\n<html lang="en">\n    <head>\n        <meta charset="utf-8">\n        <title>Error response</title>\n    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: 404</p>\n        <p>Message: File not found.</p>\n        <p>Error code explanation: 404 - Nothing matches the given URI.</p>\n    </body>\n</html>\n`;
    }
    res.writeHead(status, { Server: 'SimpleHTTP/0.6 Python/3.13.1', 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
    proc.write(
      'stderr',
      `${peerAddress(req.socket.remoteAddress)} - - [${pyTime()}] ${status === 404 ? 'code 404, message File not found\n' + `${peerAddress(req.socket.remoteAddress)} - - [${pyTime()}] ` : ''}"${req.method} ${req.url} HTTP/${req.httpVersion}" ${status} -\n`,
    );
  };
  proc.write('stdout', `Serving HTTP on 0.0.0.0 port ${port} (http://0.0.0.0:${port}/) ...\n`);
  const r = await serveHttp(proc, port, (req, res) => void handler(req, res));
  if (r) return r;
  return ok('', 1, 'Traceback (most recent call last):\n  File "<frozen runpy>", line 198, in _run_module_as_main\nOSError: [Errno 98] Address already in use\n');
}

/** The literal a one-liner prints: `print('hi')`, `console.log("hi")`, numbers. */
function literalArg(text: string): string | undefined {
  const m = /^\s*(['"`])((?:\\.|(?!\1).)*)\1\s*$/.exec(text) ?? /^\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return undefined;
  return m.length === 3 ? m[2]!.replace(/\\n/g, '\n').replace(/\\(.)/g, '$1') : m[1];
}

export function python(proc: ProgramProcess, env: Env, name: 'python' | 'python3'): Command {
  return defineCommand(name, async (args, ctx) => {
    const version = env().PYTHON_VERSION ?? '3.13.1';
    if (args[0] === '--version' || args[0] === '-V') return ok(`Python ${version}\n`);
    if (args[0] === '-m' && args[1] === 'http.server') return httpServer(proc, args.slice(2), ctx.cwd);
    if (args[0] === '-c') {
      // One-liners of print() calls (and imports) separated by ; or newlines.
      let out = '';
      for (const stmt of (args[1] ?? '')
        .split(/[;\n]/)
        .map((s) => s.trim())
        .filter(Boolean)) {
        if (/^import\s+\w+(\s*,\s*\w+)*$/.test(stmt)) continue;
        const sleep = /^time\.sleep\((.*)\)$/.exec(stmt);
        if (sleep) {
          await proc.sleep(seconds(sleep[1], 0) * 1000);
          continue;
        }
        const print = /^print\((.*)\)$/.exec(stmt);
        const value = print ? literalArg(print[1]!) : undefined;
        if (value === undefined) return ok(out, 1, `python3: kubelab's simulated Python runs print(), import and time.sleep() one-liners only, not: ${stmt}\n`);
        out += `${value}\n`;
      }
      return ok(out);
    }
    // No script on a non-terminal stdin: the interpreter reads stdin to its end and exits, as python3 does with nothing to run.
    if (args.length === 0) return ok();
    return ok('', 2, `${name}: can't open file '${args[0]}': kubelab's simulated Python runs -m http.server, -c one-liners and --version\n`);
  });
}

/** node -e "require('http').createServer((q, s) => s.end('hi')).listen(8080)": the one-line server of tutorials. */
export function node(proc: ProgramProcess, env: Env): Command {
  return defineCommand('node', async (args) => {
    const version = env().NODE_VERSION ?? '22.12.0';
    if (args[0] === '--version' || args[0] === '-v') return ok(`v${version}\n`);
    if (args[0] === '-e' || args[0] === '--eval' || args[0] === '-p') {
      const code = args[1] ?? '';
      const listen = /createServer\s*\(.*\)\s*\.listen\(\s*(\d+)/s.exec(code);
      if (listen) {
        const reply = /\.end\(\s*(['"`])((?:\\.|(?!\1).)*)\1/.exec(code)?.[2] ?? '';
        const log = /console\.log\(\s*(['"`])((?:\\.|(?!\1).)*)\1\s*\)/.exec(code)?.[2];
        if (log !== undefined) proc.write('stdout', `${log}\n`);
        const r = await serveHttp(proc, Number(listen[1]), (_req, res) => res.end(reply));
        return r ?? ok('', 1, `node:events:497\n      throw er; // Unhandled 'error' event\n      ^\n\nError: listen EADDRINUSE: address already in use :::${listen[1]}\n`);
      }
      const logs = [...code.matchAll(/console\.log\((.*?)\)/g)].map((m) => literalArg(m[1]!));
      if (logs.length && !logs.includes(undefined)) return ok(logs.map((l) => `${l}\n`).join(''));
      return ok('', 1, "node: kubelab's simulated Node.js runs console.log() and one-line http.createServer().listen() scripts only\n");
    }
    if (args.length === 0) return ok();
    return ok('', 1, `node:internal/modules/cjs/loader:1228\n  throw err;\n  ^\n\nError: Cannot find module '${args[0]}'\n`);
  });
}

export function go(env: Env): Command {
  return defineCommand('go', async (args) => {
    const version = env().GOLANG_VERSION ?? '1.23.4';
    if (args[0] === 'version') return ok(`go version go${version} linux/amd64\n`);
    if (args[0] === 'env') {
      const vars: Record<string, string> = {
        GOARCH: 'amd64',
        GOOS: 'linux',
        GOPATH: env().GOPATH ?? '/go',
        GOROOT: '/usr/local/go',
        GOVERSION: `go${version}`,
        GOTOOLCHAIN: env().GOTOOLCHAIN ?? 'local',
      };
      if (args.length > 1)
        return ok(
          args
            .slice(1)
            .map((k) => `${vars[k] ?? ''}\n`)
            .join(''),
        );
      return ok(
        Object.entries(vars)
          .map(([k, v]) => `${k}='${v}'\n`)
          .join(''),
      );
    }
    if (args.length === 0 || args[0] === 'help') return ok('', 2, 'Go is a tool for managing Go source code.\n\nUsage:\n\n\tgo <command> [arguments]\n');
    return ok('', 1, `go ${args[0]}: kubelab's simulated Go toolchain answers version and env only\n`);
  });
}

export function traefik(proc: ProgramProcess): Command {
  return defineCommand('traefik', async (args) => {
    if (args[0] === 'version') return ok('Version:      3.2.2\nCodename:     munster\nGo version:   go1.23.4\nBuilt:        2024-12-10T15:39:44Z\nOS/Arch:      linux/amd64\n');
    const t = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    proc.write('stdout', `${t()} INF Traefik version 3.2.2 built on 2024-12-10T15:39:44Z version=3.2.2\n`);
    proc.write('stdout', `${t()} INF Starting provider aggregator *aggregator.ProviderAggregator\n`);
    const r = await serveHttp(proc, 80, (_req, res) => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end('404 page not found\n');
    });
    return r ?? ok('', 1, `${t()} ERR error="error opening listener: listen tcp :80: bind: address already in use" entryPointName=web\n`);
  });
}

/** traefik's /entrypoint.sh and node's docker-entrypoint.sh exec their arguments (entrypoints.ts); as a command they run them. */
export function execEntrypoint(name: string): Command {
  return defineCommand(name, async (args, ctx) => {
    if (!args.length) return ok();
    if (!ctx.exec) return ok('', 127, `${name}: cannot exec\n`);
    return ctx.exec(args.map(quoteArg).join(' '), { cwd: ctx.cwd });
  });
}
