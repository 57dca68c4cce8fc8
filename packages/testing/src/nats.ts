import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitSignal } from './child.js';
import { freePort } from './ports.js';
import { which } from './tools.js';
import { waitFor, type WaitOptions } from './wait.js';

export interface NatsServerHandle {
  /** `nats://127.0.0.1:<port>` */
  url: string;
  port: number;
  storeDir: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Stops and starts it again on the same port with the same store. */
  restart(): Promise<void>;
  /** Stops it and removes its store. */
  dispose(): Promise<void>;
}

export interface NatsServerOptions {
  port?: number;
  storeDir?: string;
  /**
   * A configuration file's text for this port and store (TLS, users,
   * permissions: see `@kubelab/nats/testing`); without it the server runs
   * open, from command-line flags.
   */
  config?: (at: { port: number; storeDir: string }) => string;
}

/** Starts a real nats-server with JetStream (file storage) on a free loopback port. */
export async function startNatsServer(opts: NatsServerOptions = {}): Promise<NatsServerHandle> {
  const bin = which('nats-server');
  if (!bin) throw new Error('nats-server not found: apt-get install nats-server');
  const port = opts.port ?? (await freePort());
  const storeDir = opts.storeDir ?? mkdtempSync(join(tmpdir(), 'kubelab-nats-'));
  let child: ChildProcess | undefined;
  let args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir];
  if (opts.config) {
    // Beside the store, not in it: JetStream owns the store's contents.
    const file = `${storeDir}.conf`;
    writeFileSync(file, opts.config({ port, storeDir }));
    args = ['-c', file];
  }

  const start = async () => {
    child = spawn(bin, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await waitForPort(port, { timeoutMs: 10_000, everyMs: 50, signal: exitSignal(child, `nats-server on port ${port}`) });
  };

  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill('SIGTERM');
    });
  };

  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    dispose: async () => {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
      if (opts.config) rmSync(`${storeDir}.conf`, { force: true });
    },
  };
}

/** Resolves once something accepts TCP connections on 127.0.0.1:port. */
export async function waitForPort(port: number, opts: WaitOptions = {}): Promise<void> {
  await waitFor(
    `something listening on 127.0.0.1:${port}`,
    () =>
      new Promise<boolean>((resolve) => {
        const s = connect(port, '127.0.0.1');
        s.once('connect', () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      }),
    opts,
  );
}
