// @ts-check
// What the hollow-node benchmarks share: progress lines, a bounded wait, and
// commands run to completion (kubectl, the runner's subcommands).

import { execFile } from 'node:child_process';

/** A progress line on stderr when BENCH_VERBOSE is set. */
export const progress = (m) => process.env.BENCH_VERBOSE && process.stderr.write(`[bench] ${new Date().toISOString()} ${m}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * Runs a command to its end; its stdout, or an error naming it with its stderr.
 * @param {string} file @param {string[]} args @param {{ timeoutMs?: number; input?: string }} [opts]
 * @returns {Promise<string>}
 */
export function run(file, args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = execFile(file, args, { timeout: opts.timeoutMs ?? 60_000, maxBuffer: 256 << 20 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${file} ${args.join(' ')}: ${stderr.trim() || err.message}`)) : resolve(stdout),
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/**
 * A wait bounded by `timeoutMs`: fn is tried every `everyMs` until it gives a
 * value other than undefined/false. A dead runner (`kubelab up exited`) ends
 * the run; any other failure (a slow or refused kubectl call) is tried again.
 * @param {number} timeoutMs
 */
export function waiter(timeoutMs) {
  return async function until(what, fn, everyMs = 1000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const v = await fn().catch((e) => {
        if (/kubelab up exited/.test(e.message)) throw e;
        return undefined;
      });
      if (v !== undefined && v !== false) return v;
      if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${what}`);
      await sleep(everyMs);
    }
  };
}
