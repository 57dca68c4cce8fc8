// Graceful shutdown on SIGINT/SIGTERM, as upstream's SetupSignalHandler: the
// first signal runs the shutdown hooks, a second one exits at once.

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
