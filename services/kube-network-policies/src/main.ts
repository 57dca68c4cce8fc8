#!/usr/bin/env node
// kube-network-policies' entry point: parse flags, start, stop on SIGTERM.

import { credentialsFromKubeconfig } from '@kubelab/client';
import { createLogger, FlagError, onShutdown, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { parsePolicyAgentCommand } from './options.js';
import { startPolicyAgent } from './server.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

async function main(): Promise<void> {
  let cmd;
  try {
    cmd = parsePolicyAgentCommand(process.argv.slice(2));
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
  const logger = createLogger({ component: 'kube-network-policies', node: cmd.nodeName });
  const agent = await startPolicyAgent({
    nodeName: cmd.nodeName,
    clusterCIDR: cmd.clusterCIDR,
    bindAddress: cmd.bindAddress,
    apiserverAddress: cmd.apiserverAddress,
    // A client certificate (kubelab up's and compose's kube-network-policies.conf), or the ServiceAccount's token (tokenFile: a joined node's, as the DaemonSet pod's in-cluster config).
    ...(apiserver ? { apiserverTls: apiserver.tls, ...(apiserver.bearerToken ? { apiserverBearerToken: apiserver.bearerToken } : {}) } : {}),
    apply: cmd.apply,
    ...(cmd.socketLbDir ? { socketLbDir: cmd.socketLbDir } : {}),
    logger,
  });
  onShutdown(async () => {
    logger.info('Shutting down');
    await agent.stop();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`kube-network-policies: ${(err as Error).message}\n`);
  process.exit(1);
});
