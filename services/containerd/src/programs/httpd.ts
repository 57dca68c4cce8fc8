// The httpd image: `httpd-foreground` runs Apache in the foreground, serving
// htdocs on :80 with Apache's startup notices (the AH00558 ServerName warning
// every first-time user sees) and Common Log Format access lines.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineCommand, type Command } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import { CONTENT_TYPES, clf, ok, peerAddress, podAddress, untilSignal } from './util.js';

const NOT_FOUND =
  '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n';

/** Apache's error-log time: `Wed Dec 02 11:40:00.123456 2026`. */
function errorLogTime(d: Date): string {
  const day = d.toLocaleString('en-US', { weekday: 'short', timeZone: 'UTC' });
  const mon = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${day} ${mon} ${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds() * 1000, 6)} ${d.getUTCFullYear()}`;
}

export function httpd(proc: ProgramProcess, env: () => Record<string, string>, name: 'httpd' | 'httpd-foreground'): Command {
  let running = false;
  return defineCommand(name, async (args) => {
    const version = env().HTTPD_VERSION ?? '2.4.62';
    if (args.includes('-v')) return ok(`Server version: Apache/${version} (Unix)\nServer built:   Nov  5 2024 04:13:41\n`);
    if (args.includes('-t')) return ok('', 0, 'Syntax OK\n');
    if (running) return ok('', 1, '(98)Address already in use: AH00072: make_sock: could not bind to address [::]:80\n');
    running = true;
    const root = `${env().HTTPD_PREFIX ?? '/usr/local/apache2'}/htdocs`;
    const notice = (module: string, text: string) => proc.write('stderr', `[${errorLogTime(new Date())}] [${module}:notice] [pid 1:tid 1] ${text}\n`);
    const handler = async (req: IncomingMessage, res: ServerResponse) => {
      let path = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
      if (path.endsWith('/')) path += 'index.html';
      let status = 200;
      let body: string;
      try {
        if (path.includes('..')) throw new Error('traversal');
        body = await proc.fs.readFile(`${root}${path}`);
      } catch {
        status = 404;
        body = NOT_FOUND;
      }
      const ext = path.slice(path.lastIndexOf('.') + 1);
      res.writeHead(status, { Server: `Apache/${version} (Unix)`, 'Content-Type': status === 200 ? (CONTENT_TYPES[ext] ?? 'text/plain') : 'text/html; charset=iso-8859-1' });
      res.end(req.method === 'HEAD' ? undefined : body);
      proc.write('stdout', `${peerAddress(req.socket.remoteAddress)} - - [${clf(new Date())}] "${req.method} ${req.url} HTTP/${req.httpVersion}" ${status} ${Buffer.byteLength(body)}\n`);
    };
    let listener;
    try {
      listener = await proc.listen(80, (req, res) => void handler(req, res));
    } catch {
      running = false;
      return ok('', 1, '(98)Address already in use: AH00072: make_sock: could not bind to address 0.0.0.0:80\nno listening sockets available, shutting down\nAH00015: Unable to open logs\n');
    }
    const ip = await podAddress(proc);
    const fqdn = `AH00558: httpd: Could not reliably determine the server's fully qualified domain name, using ${ip}. Set the 'ServerName' directive globally to suppress this message\n`;
    proc.write('stderr', fqdn + fqdn);
    notice('mpm_event', `AH00489: Apache/${version} (Unix) configured -- resuming normal operations`);
    notice('core', "AH00094: Command line: 'httpd -D FOREGROUND'");
    // The image's STOPSIGNAL is WINCH (graceful stop); a TERM from the kubelet stops it at once.
    const sig = await untilSignal(proc, true);
    if (sig === 'TERM') notice('mpm_event', 'AH00491: caught SIGTERM, shutting down');
    await proc.unlisten(listener);
    running = false;
    return ok('', sig === 'TERM' ? 0 : 137);
  });
}
