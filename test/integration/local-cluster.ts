// `pnpm kubelab up` as the integration suites run it: the built runner in a
// throwaway state dir on ports moved by an offset of the suite's own, the
// real kubectl against the kubeconfig it writes, and a SIGTERM at the end.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@kubelab/testing';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RUNNER = join(ROOT, 'packages/kubelab/dist/main.js');
export const KUBECTL = '/usr/bin/kubectl';

/** A user's DaemonSet of pause pods (no tolerations: every node but the tainted control-plane node), as `kubectl apply -f -` input. */
export const AGENT_DAEMONSET = JSON.stringify({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'default' },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'registry.k8s.io/pause:3.10' }] } } },
});

export interface Run {
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs `exe` to its end; a non-zero exit is a result, not an error. */
export function run(exe: string, args: string[], opts: { timeoutMs?: number; stdin?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(exe, args, { timeout: opts.timeoutMs ?? 60_000, ...(opts.env ? { env: opts.env } : {}) }, (err, stdout, stderr) =>
      resolve({ stdout, stderr, code: err ? ((err as { code?: number }).code ?? 1) : 0 }),
    );
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
  });
}

export class LocalCluster {
  readonly dir: string;
  private proc: ChildProcess | undefined;
  private out = '';

  constructor(prefix: string) {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
  }

  /** Everything the runner printed so far (stdout and stderr). */
  get output(): string {
    return this.out;
  }

  get runner(): ChildProcess {
    if (!this.proc) throw new Error('the cluster was not started');
    return this.proc;
  }

  /**
   * `kubelab up FLAGS --state-dir DIR`, until it prints `cluster ready`; its exit before that fails with its last lines.
   * A start refused only because a port was taken (EADDRINUSE: another process on this shared machine held
   * it for a moment) is tried once more in a fresh state dir, after printing who held the port.
   */
  async up(flags: string[], readyTimeoutMs: number): Promise<void> {
    const started = Date.now();
    const first = await this.start(flags, readyTimeoutMs);
    if (first === 'ready') return;
    const port = /EADDRINUSE: address already in use [\d.:[\]a-f]*:(\d+)/.exec(this.out)?.[1];
    if (port === undefined) throw new Error(`kubelab up exited with ${this.proc!.exitCode}:\n${this.out.slice(-2000)}`);
    const holders = (await run('ss', ['-Htanp', `( sport = :${port} )`], { timeoutMs: 5_000 })).stdout.trim() || '(free now)';
    process.stderr.write(`kubelab up: port ${port} was taken; trying once more. Its sockets:\n${holders}\n`);
    rmSync(this.dir, { recursive: true, force: true });
    this.out = '';
    await new Promise((r) => setTimeout(r, 2_000));
    if ((await this.start(flags, Math.max(readyTimeoutMs - (Date.now() - started), 60_000))) === 'exited') {
      throw new Error(`kubelab up exited with ${this.proc!.exitCode} (after port ${port} was taken once):\n${this.out.slice(-2000)}`);
    }
  }

  private async start(flags: string[], readyTimeoutMs: number): Promise<'ready' | 'exited'> {
    const proc = spawn(process.execPath, [RUNNER, 'up', '--state-dir', this.dir, ...flags], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    proc.stdout!.on('data', (d: Buffer) => (this.out += d.toString()));
    proc.stderr!.on('data', (d: Buffer) => (this.out += d.toString()));
    return waitFor('cluster ready', () => (this.out.includes('cluster ready') ? 'ready' : proc.exitCode !== null ? 'exited' : undefined), { timeoutMs: readyTimeoutMs });
  }

  /** The real kubectl with the cluster's kubeconfig (and a cache of its own). */
  kubectl(args: string[], stdin?: string): Promise<Run> {
    return run(KUBECTL, ['--kubeconfig', join(this.dir, 'kubeconfig'), '--cache-dir', join(this.dir, 'kcache'), ...args], { timeoutMs: 30_000, ...(stdin !== undefined ? { stdin } : {}) });
  }

  /** A `kubelab` command against this cluster (`--state-dir` added before a `--`). */
  kubelab(args: string[], timeoutMs = 60_000): Promise<Run> {
    const end = args.includes('--') ? args.indexOf('--') : args.length;
    return run(process.execPath, [RUNNER, ...args.slice(0, end), '--state-dir', this.dir, ...args.slice(end)], { timeoutMs });
  }

  /** SIGTERM to the runner (it stops every process), then the state dir goes. */
  async down(): Promise<void> {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      await exited;
    }
    // KUBELAB_KEEP_STATE=1 keeps the state dir (its logs) for a failure's post-mortem.
    if (process.env.KUBELAB_KEEP_STATE) process.stdout.write(`kept ${this.dir}\n`);
    else rmSync(this.dir, { recursive: true, force: true });
  }
}
