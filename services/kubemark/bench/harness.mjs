// @ts-check
// What the hollow-node benchmarks share: progress lines, a bounded wait, and
// commands run to completion (kubectl, the runner's subcommands).

import { execFile, spawn } from 'node:child_process';

/** A progress line on stderr when BENCH_VERBOSE is set. */
export const progress = (m) => process.env.BENCH_VERBOSE && process.stderr.write(`[bench] ${new Date().toISOString()} ${m}\n`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Whether `child` has ended (by a signal too: its exitCode stays null then). @param {import('node:child_process').ChildProcess} child */
export const gone = (child) => child.exitCode !== null || child.signalCode !== null;

/**
 * Resolves when `child` exits or after `ms`, whichever comes first; the timer
 * goes with it (a pending one would keep the bench alive for the rest of `ms`
 * after the child is gone).
 * @param {import('node:child_process').ChildProcess} child @param {number} ms
 */
export function exited(child, ms) {
  return new Promise((resolve) => {
    // Gone already: its 'exit' has been emitted.
    if (gone(child)) return resolve(undefined);
    const timer = setTimeout(resolve, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
}
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

/**
 * Each node's Ready status as `kubectl get nodes --watch` streams it (one
 * list, then a line per change), as a user would follow a cluster coming up:
 * a poll of `kubectl get nodes` lists every node each time, megabytes a
 * second through the apiserver at a thousand nodes, which the benchmark
 * would then measure as well. A watch that ends is started again.
 * @param {string} kubectl @param {string} kubeconfig
 */
export function followNodes(kubectl, kubeconfig) {
  /** @type {Map<string, boolean>} */
  const ready = new Map();
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  let stopped = false;
  const start = () => {
    const args = ['--kubeconfig', kubeconfig, 'get', 'nodes', '--watch', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name,READY:.status.conditions[?(@.type=="Ready")].status'];
    const c = spawn(kubectl, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    child = c;
    let buf = '';
    c.stdout?.on('data', (d) => {
      buf += d;
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const line of lines) {
        const [name, status] = line.trim().split(/\s+/);
        if (name) ready.set(name, status === 'True');
      }
    });
    c.on('exit', () => {
      if (!stopped) setTimeout(start, 1000);
    });
  };
  start();
  return {
    /** Nodes seen (any status) and Ready. */
    counts: () => ({ registered: ready.size, ready: [...ready.values()].filter(Boolean).length }),
    stop: () => {
      stopped = true;
      child?.kill();
    },
  };
}
