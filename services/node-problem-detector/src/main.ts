#!/usr/bin/env node
// node-problem-detector's entry point: parse flags, start, stop on SIGTERM.

import { clientTlsFromKubeconfig } from '@kubelab/client';
import { createLogger, FlagError, onShutdown } from '@kubelab/component-base';
import { parseNpdCommand } from './options.js';
import { startNodeProblemDetector } from './server.js';

async function main(): Promise<void> {
  let cmd;
  try {
    cmd = parseNpdCommand(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof FlagError ? '' : 'Error: '}${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ component: 'node-problem-detector', node: cmd.nodeName });
  const npd = await startNodeProblemDetector({
    ...cmd,
    ...(cmd.kubeconfig ? { apiserverTls: clientTlsFromKubeconfig(cmd.kubeconfig) } : {}),
    logger,
  });
  logger.info('node-problem-detector started', { node: cmd.nodeName, prometheusPort: npd.prometheusPort, port: npd.serverPort });
  onShutdown(async () => {
    logger.info('Shutting down');
    await npd.stop();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`node-problem-detector: ${(err as Error).message}\n`);
  process.exit(1);
});
