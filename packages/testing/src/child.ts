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
