// The e2e harness: drives the compose stack the way a user does (compose
// CLI, the real kubectl, `pnpm kubelab trace`) and waits on what they see.

import { execFile, spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** How compose is invoked here: the v2 plugin (`docker compose`) when present, else v1's standalone `docker-compose`. */
export interface ComposeCli {
  command: string;
  prefix: string[];
  /** v1 names containers `<project>_<service>_1`, v2 `<project>-<service>-1`. */
  v2: boolean;
}

/** Detects the compose CLI (never hard-coded: users mostly have v2, these machines only v1). */
export function detectCompose(): ComposeCli | undefined {
  const plugin = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (plugin.status === 0) return { command: 'docker', prefix: ['compose'], v2: true };
  const standalone = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  if (standalone.status === 0) return { command: 'docker-compose', prefix: [], v2: false };
  return undefined;
}

/** Whether a Docker engine answers (the CLI alone is not enough). */
export function dockerEngineUp(): boolean {
  return spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' }).status === 0;
}

export interface Stack {
  cli: ComposeCli;
  project: string;
  env: NodeJS.ProcessEnv;
  kubeconfig: string;
}

export async function compose(stack: Stack, args: string[], timeoutMs = 120_000): Promise<string> {
  try {
    const { stdout } = await run(stack.cli.command, [...stack.cli.prefix, '-p', stack.project, ...args], {
      cwd: REPO_ROOT,
      env: stack.env,
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    // A failed `up` says which container was not healthy and why (CI keeps no logs of its own).
    const why = args.includes('up') ? await unhealthyContainers(stack.project).catch((d: unknown) => `(no diagnostics: ${String(d)})`) : '';
    throw new Error(`compose ${args.join(' ')}: ${e.stderr?.trim() || e.message}${why}`, { cause: err });
  }
}

/** Each of the project's containers that is not running healthy: its state, restarts, last probes and last log lines. */
async function unhealthyContainers(project: string): Promise<string> {
  const { stdout } = await run('docker', ['ps', '-a', '--filter', `label=com.docker.compose.project=${project}`, '--format', '{{.Names}}\t{{.Status}}']);
  const bad = stdout
    .trim()
    .split('\n')
    .map((l) => l.split('\t') as [string, string])
    .filter(([, status]) => !!status && !/\(healthy\)|^Exited \(0\)/.test(status) && !/^Up [^(]*$/.test(status));
  const parts: string[] = [];
  for (const [name, status] of bad) {
    const inspect = await run('docker', ['inspect', '-f', '{{.RestartCount}} restarts; probes:{{if .State.Health}}{{range .State.Health.Log}} [{{.ExitCode}} {{.Output}}]{{end}}{{end}}', name]);
    const logs = await run('docker', ['logs', '--tail', '25', name], { maxBuffer: 4 * 1024 * 1024 });
    parts.push(`--- ${name}: ${status}; ${inspect.stdout.trim()}\n${(logs.stdout + logs.stderr).trim()}`);
  }
  return parts.length ? `\n${parts.join('\n')}` : '';
}

/**
 * A fresh stack as a user starts one: `down -v` of what a previous run left, `build` of `images` (skipped with
 * KUBELAB_E2E_BUILD=0: the images already tagged), then `up -d` of `services`; compose gives up on a dependency that
 * was unhealthy at the moment it looked, so a user runs `up` again, and so does this, once, after printing what was
 * unhealthy (the second failure is the caller's). `flags` go before each command (--env-file, --profile).
 */
export async function startStack(stack: Stack, o: { flags: string[]; images: string[]; services: string[] }): Promise<void> {
  await compose(stack, [...o.flags, 'down', '-v', '--remove-orphans', '-t', '1']);
  if (process.env.KUBELAB_E2E_BUILD !== '0') await compose(stack, [...o.flags, 'build', ...o.images], 20 * 60_000);
  const up = () => compose(stack, [...o.flags, 'up', '-d', ...o.services], 5 * 60_000);
  await up().catch(async (err: Error) => {
    console.warn(`first up failed, trying once more: ${err.message}`);
    await up();
  });
}

/** `down -v` of the stack (its volumes too); a failure is only printed. */
export async function removeStack(stack: Stack, flags: string[] = []): Promise<void> {
  await compose(stack, [...flags, 'down', '-v', '--remove-orphans', '-t', '1'], 180_000).catch((err: Error) => console.warn(`down failed: ${err.message}`));
}

export async function kubectl(stack: Stack, args: string[], opts: { allowFail?: boolean } = {}): Promise<string> {
  try {
    const { stdout } = await run('kubectl', args, {
      env: { ...process.env, KUBECONFIG: stack.kubeconfig },
      timeout: 30_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    if (opts.allowFail) return `${e.stdout ?? ''}${e.stderr ?? ''}`;
    throw new Error(`kubectl ${args.join(' ')}: ${e.stderr?.trim() || e.message}`, { cause: err });
  }
}

/** `kubectl ... -o json`, parsed as the caller says it is (an object or list of @kubelab/api). */
export async function kubectlJson<T extends object>(stack: Stack, args: string[]): Promise<T> {
  return JSON.parse(await kubectl(stack, [...args, '-o', 'json'])) as T;
}

/** The Docker container of a compose service (for inspect). */
export function containerName(stack: Stack, service: string): string {
  return stack.cli.v2 ? `${stack.project}-${service}-1` : `${stack.project}_${service}_1`;
}

export async function docker(args: string[], timeoutMs = 60_000): Promise<string> {
  const { stdout } = await run('docker', args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/**
 * An HTTP GET from inside a node's network namespace (the node-N container),
 * as `curl` on a real node would do it. Returns "<status> <body>" or
 * "ERR <message>".
 */
export async function httpFromNode(stack: Stack, node: string, url: string): Promise<string> {
  const script = `fetch(${JSON.stringify(url)}, { signal: AbortSignal.timeout(3000) })
    .then(async (r) => console.log(r.status + ' ' + (await r.text()).slice(0, 200).replace(/\\s+/g, ' ')))
    .catch((e) => console.log('ERR ' + (e.cause?.code ?? e.name)))`;
  return (await compose(stack, ['exec', '-T', node, 'node', '-e', script], 30_000)).trim();
}
