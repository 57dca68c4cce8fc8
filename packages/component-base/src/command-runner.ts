// Running the kernel tools (iptables-save/-restore, nft, ipvsadm, ip), optionally
// inside a named network namespace (`ip netns exec NS ...`): kube-proxy and the
// NetworkPolicy agent share it, and their tests apply rules in a namespace of
// their own, never the host's.

import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CommandRunner {
  run(argv: string[], input?: string): Promise<CommandResult>;
}

export class CommandError extends Error {
  override name = 'CommandError';
  constructor(
    readonly argv: string[],
    readonly result: CommandResult,
  ) {
    super(`${argv.join(' ')} exited with ${result.code}: ${result.stderr.trim() || result.stdout.trim()}`);
  }
}

/** Runs commands on this host, or inside network namespace `netns`; a command running past timeoutMs is killed. */
export function execRunner(netns?: string, opts: { timeoutMs?: number } = {}): CommandRunner {
  return {
    run(argv, input) {
      const full = netns ? ['ip', 'netns', 'exec', netns, ...argv] : argv;
      return new Promise((resolve) => {
        const child = spawn(full[0]!, full.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], ...(opts.timeoutMs ? { timeout: opts.timeoutMs, killSignal: 'SIGKILL' as const } : {}) });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', (err) => resolve({ code: 127, stdout, stderr: `${stderr}${err.message}` }));
        child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
        child.stdin.on('error', () => undefined);
        child.stdin.end(input ?? '');
      });
    },
  };
}

/** Runs a command and throws a CommandError naming it when it fails. */
export async function mustRun(runner: CommandRunner, argv: string[], input?: string): Promise<string> {
  const r = await runner.run(argv, input);
  if (r.code !== 0) throw new CommandError(argv, r);
  return r.stdout;
}

/** Undefined when the command succeeds, else why rules cannot be applied (a backend's probe). */
export async function probeCommand(runner: CommandRunner, argv: string[]): Promise<string | undefined> {
  const r = await runner.run(argv);
  if (r.code === 0) return undefined;
  return `\`${argv.join(' ')}\` failed (${(r.stderr || r.stdout).trim().split('\n')[0] || `exit ${r.code}`}): no NET_ADMIN in this network namespace?`;
}
