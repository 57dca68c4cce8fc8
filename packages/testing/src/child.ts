import type { ChildProcess } from 'node:child_process';

/**
 * Aborted, with an Error naming the child, its exit status and (when its
 * stderr is piped) the tail of its stderr, once the child exits: a wait on
 * something the child should provide gives up at once instead of at its timeout.
 */
export function exitSignal(child: ChildProcess, name: string): AbortSignal {
  const exited = new AbortController();
  let stderr = '';
  child.stderr?.on('data', (d: Buffer | string) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const abort = () => exited.abort(new Error(`${name} exited (${child.exitCode ?? child.signalCode})${stderr ? `: ${stderr}` : ''}`));
  if (child.exitCode !== null || child.signalCode !== null) abort();
  else child.once('exit', abort);
  return exited.signal;
}

/**
 * Ends processes that outlive their parent by design (containerd's shim host,
 * as upstream's shims do): TERM, which lets each end its children and write
 * its profile, then KILL whatever is left after `graceMs`.
 */
export async function endProcesses(pids: readonly number[], graceMs = 5000): Promise<void> {
  const signal = (list: readonly number[], sig: NodeJS.Signals | 0): number[] =>
    list.filter((pid) => {
      try {
        process.kill(pid, sig);
        return true;
      } catch {
        return false; // gone already
      }
    });
  let left = signal(pids, 'SIGTERM');
  for (const end = Date.now() + graceMs; left.length > 0 && Date.now() < end; left = signal(left, 0)) await new Promise((r) => setTimeout(r, 100));
  signal(left, 'SIGKILL');
}
