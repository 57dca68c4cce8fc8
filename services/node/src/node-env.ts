// Where the node tools look: every node path under KUBELAB_NODE_ROOT (the
// container's / in compose, <state-dir>/nodes/<node>/root in the local
// runner) and the node's name from KUBELAB_NODE_NAME, as the contract.

import { hostname } from 'node:os';

export interface NodeEnv {
  root: string;
  name: string;
  /** Only the node's units and their descendants are the node's processes (the local runner shares the host's /proc). */
  unitProcessesOnly: boolean;
}

export function nodeEnv(env: NodeJS.ProcessEnv = process.env): NodeEnv {
  const root = env.KUBELAB_NODE_ROOT || '/';
  return { root, name: env.KUBELAB_NODE_NAME || hostname(), unitProcessesOnly: root !== '/' };
}

/** How a tool writes and what it returns: testable without a process. */
export interface Io {
  out(s: string): void;
  err(s: string): void;
  /** Aborts a follow (`journalctl -f`, Ctrl-C). */
  signal?: AbortSignal;
  now?: () => Date;
}

/** A tool's entry: argv after the program name → exit code. */
export type Tool = (argv: string[], io: Io, env: NodeEnv) => Promise<number>;

/** Runs a tool as a program: stdout/stderr, Ctrl-C ends a follow, the exit code. */
export function runMain(tool: Tool): void {
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort());
  process.stdout.on('error', () => process.exit(0)); // a closed pipe (| head) ends the tool quietly
  tool(process.argv.slice(2), { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s), signal: ac.signal }, nodeEnv()).then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
