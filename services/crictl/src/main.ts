#!/usr/bin/env node
// crictl's entry point: the node's CRI client (cri-tools cmd/crictl).

import { runCrictl } from './app.js';

const abort = new AbortController();
let interrupts = 0;
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    // The first interrupt ends what runs (logs -f, stats -w); the second exits at once, as crictl.
    if (++interrupts > 1) process.exit(1);
    abort.abort();
  });

const code = await runCrictl(process.argv.slice(2), {
  out: process.stdout,
  err: process.stderr,
  stdin: process.stdin,
  env: process.env,
  errIsTTY: Boolean(process.stderr.isTTY),
  signal: abort.signal,
});
process.stdout.write('', () => process.exit(code));
