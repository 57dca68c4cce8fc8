#!/usr/bin/env node
// node-problem-detector's entry point: parse flags, start, stop on SIGTERM.

import { credentialsFromKubeconfig } from '@kubelab/client';
import { createLogger, FlagError, onShutdown, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { parseNpdCommand } from './options.js';
import { startNodeProblemDetector } from './server.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

async function main(): Promise<void> {
  let cmd;
  try {
    cmd = parseNpdCommand(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof FlagError ? '' : 'Error: '}${(err as Error).message}\n`);
    process.exit(1);
  }
  let apiserver;
  try {
    apiserver = cmd.kubeconfig ? credentialsFromKubeconfig(cmd.kubeconfig) : undefined;
  } catch (err) {
    process.stderr.write(`Error: ${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ component: 'node-problem-detector', node: cmd.nodeName });
  const npd = await startNodeProblemDetector({
    ...cmd,
    // A client certificate (kubelab up's and compose's node-problem-detector.conf), or the ServiceAccount's token (tokenFile: a joined node's, as the DaemonSet pod's in-cluster config).
    ...(apiserver ? { apiserverTls: apiserver.tls, ...(apiserver.bearerToken ? { apiserverBearerToken: apiserver.bearerToken } : {}) } : {}),
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
