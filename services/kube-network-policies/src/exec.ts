// Running iptables-save / iptables-restore, optionally inside a named network
// namespace (`ip netns exec`), as kube-proxy's runner does: the tests apply
// rules in a namespace of their own, never the host's.

import { spawn } from 'node:child_process';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CommandRunner {
  run(argv: string[], input?: string): Promise<CommandResult>;
}

/** Runs commands on this host, or inside network namespace `netns`. */
export function execRunner(netns?: string, timeoutMs = 60_000): CommandRunner {
  return {
    run(argv, input) {
      const full = netns ? ['ip', 'netns', 'exec', netns, ...argv] : argv;
      return new Promise((resolve) => {
        const child = spawn(full[0]!, full.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
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

/** Runs a command; a failure throws an error naming it and what it printed. */
export async function mustRun(runner: CommandRunner, argv: string[], input?: string): Promise<string> {
  const r = await runner.run(argv, input);
  if (r.code !== 0) throw new Error(`${argv.join(' ')} exited with ${r.code}: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}
