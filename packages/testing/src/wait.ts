// Polling for state owned by another process (a real server, a child
// process): in-process code exposes a step function or a fake clock instead.

export interface WaitOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Pause between attempts (default 25 ms). */
  everyMs?: number;
  /** Gives up early, with the signal's reason, when aborted (say the awaited process exited: no point polling on). */
  signal?: AbortSignal;
}

/**
 * Calls fn until it returns something other than undefined or false and
 * resolves with it; throws `timed out waiting for <what>` (with fn's last
 * error) when the time is up.
 */
export async function waitFor<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, opts: WaitOptions = {}): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    opts.signal?.throwIfAborted();
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${last instanceof Error ? last.message : String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 25));
  }
}

/**
 * Calls fn until it resolves, retrying while it throws an error isTransient
 * accepts (say a server restarting); any other error, or a transient one once
 * the time is up, is thrown as it is, so callers still see the real failure.
 */
export async function retrying<T>(fn: () => Promise<T>, isTransient: (err: unknown) => boolean, opts: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    opts.signal?.throwIfAborted();
    try {
      return await fn();
    } catch (err) {
      if (!isTransient(err) || Date.now() > deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 25));
  }
}
