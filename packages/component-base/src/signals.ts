// A binary's life: its entry exits 2 on a bad flag and 1 on any other
// failure (as cobra's Execute), and graceful shutdown on SIGINT/SIGTERM as
// upstream's SetupSignalHandler: the first signal runs the shutdown hooks, a
// second one exits at once.

import { FlagError } from './flags.js';

/** Runs a binary's main: a FlagError prints its message and exits 2; any other failure exits 1. */
export function runMain(command: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof FlagError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${command}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}

export function onShutdown(shutdown: (signal: NodeJS.Signals) => Promise<void> | void): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    Promise.resolve()
      .then(() => shutdown(signal))
      .then(
        () => process.exit(0),
        (err: unknown) => {
          process.stderr.write(`shutdown failed: ${String(err)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
}
