// agnhost (registry.k8s.io/e2e-test-images/agnhost), the image Kubernetes'
// own e2e tests and docs use: one binary, a subcommand per behaviour. The
// subcommands labs use are here with upstream's ports, paths and log lines.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { defineCommand, type Command } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import { ok, option, peerAddress, seconds, untilSignal, type Result } from './util.js';

const SUBCOMMANDS = ['liveness', 'netexec', 'pause', 'porter', 'serve-hostname'] as const;

/** Serves each port until TERM or KILL (agnhost exits 0 on TERM only for pause; servers die with the signal). */
async function servePorts(proc: ProgramProcess, ports: [number, (req: IncomingMessage, res: ServerResponse) => void][], exit?: Promise<number>): Promise<Result> {
  const listeners = [];
  for (const [port, handler] of ports) {
    try {
      listeners.push(await proc.listen(port, handler));
    } catch (e) {
      for (const l of listeners) await proc.unlisten(l);
      return ok('', 1, `listen tcp :${port}: bind: ${(e as Error).message}\n`);
    }
  }
  const code = await Promise.race([untilSignal(proc, false).then(() => 137), ...(exit ? [exit] : [])]);
  for (const l of listeners) await proc.unlisten(l);
  return ok('', code);
}

/** Go's time.Now().String() as netexec's / answers it. */
function goNow(startedAt: number): string {
  const d = new Date();
  const iso = d.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000000 +0000 UTC m=+${((Date.now() - startedAt) / 1000).toFixed(9)}`;
}

export function agnhost(proc: ProgramProcess, env: () => Record<string, string>): Command {
  return defineCommand('agnhost', async (args) => {
    const [sub, ...rest] = args;
    const hostname = async () => (await proc.fs.readFile('/etc/hostname').catch(() => 'localhost')).trim();
    const log = (text: string) => proc.write('stderr', `${new Date().toISOString().replace('T', ' ').slice(0, 19).replace(/-/g, '/')} ${text}\n`);
    switch (sub) {
      case 'pause': {
        proc.write('stdout', 'Paused\n');
        const sig = await untilSignal(proc, true);
        if (sig === 'TERM') proc.write('stdout', 'Shutting down after receiving signal: terminated.\n');
        return ok('', sig === 'TERM' ? 0 : 137);
      }
      case 'serve-hostname': {
        const port = seconds(option(rest, '--port'), 9376);
        const name = await hostname();
        log(`Serving on port ${port}.`);
        return servePorts(proc, [[port, (_req, res) => res.end(name)]]);
      }
      case 'netexec': {
        const port = seconds(option(rest, '--http-port'), 8080);
        const started = Date.now();
        const name = await hostname();
        let settle!: (code: number) => void;
        const exit = new Promise<number>((r) => (settle = r));
        log(`Started HTTP server on port ${port}`);
        return servePorts(
          proc,
          [
            [
              port,
              (req, res) => {
                const url = new URL(req.url ?? '/', 'http://localhost');
                switch (url.pathname) {
                  case '/':
                    return res.end(`NOW: ${goNow(started)}`);
                  case '/hostname':
                    return res.end(name);
                  case '/echo':
                    return res.end(url.searchParams.get('msg') ?? '');
                  case '/clientip':
                    return res.end(`${peerAddress(req.socket.remoteAddress)}:${req.socket.remotePort}`);
                  case '/healthz':
                    return res.end('');
                  case '/header':
                    return res.end(String(req.headers[(url.searchParams.get('key') ?? '').toLowerCase()] ?? ''));
                  case '/exit': {
                    const code = Number(url.searchParams.get('code') ?? '0');
                    res.end();
                    log(`Exiting with code ${code}`);
                    return settle(Number.isInteger(code) ? code : 0);
                  }
                  default:
                    res.writeHead(404);
                    return res.end('404 page not found\n');
                }
              },
            ],
          ],
          exit,
        );
      }
      case 'liveness': {
        // Healthy for 10 seconds of container time, then 500 with the age, so a liveness probe restarts it.
        const started = Date.now();
        log('Started HTTP server on port 8080');
        return servePorts(proc, [
          [
            8080,
            (req, res) => {
              const age = ((Date.now() - started) / 1000) * proc.timeScale;
              if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/healthz') return res.end('');
              if (age > 10) {
                res.writeHead(500);
                return res.end(`error: ${age.toFixed(6)}s`);
              }
              return res.end('ok');
            },
          ],
        ]);
      }
      case 'porter': {
        const e = env();
        const ports = Object.entries(e)
          .filter(([k]) => /^SERVE_PORT_\d+$/.test(k))
          .map(([k, v]) => [Number(k.slice('SERVE_PORT_'.length)), v] as const);
        if (!ports.length) return ok('', 1, 'No ports to serve; set SERVE_PORT_<port>=<text>\n');
        for (const [p] of ports) log(`Serving on port ${p}`);
        return servePorts(
          proc,
          ports.map(([p, text]) => [p, (_req, res) => res.end(text)]),
        );
      }
      default: {
        const usage = `Usage:\n  agnhost [command]\n\nAvailable Commands:\n${SUBCOMMANDS.map((c) => `  ${c}`).join('\n')}\n`;
        if (sub === undefined || sub === '--help' || sub === 'help') return ok(usage);
        return ok('', 1, `Error: unknown command "${sub}" for "agnhost"\nRun 'agnhost --help' for usage.\n`);
      }
    }
  });
}
