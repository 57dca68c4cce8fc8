#!/usr/bin/env node
// kube-proxy's entry point: parse flags (and --config), start, stop on SIGTERM.

import { writeFileSync } from 'node:fs';
import { createLogger, FlagError, onShutdown, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { credentialsFromKubeconfig } from '@kubelab/client';
import { setupTracing } from '@kubelab/tracing';
import { readNatsTls } from '@kubelab/nats';
import { renderKubeProxyConfig } from './config.js';
import { parseKubeProxyCommand } from './options.js';
import { startKubeProxy } from './server.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

async function main(): Promise<void> {
  let cmd;
  try {
    cmd = parseKubeProxyCommand(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof FlagError ? '' : 'Error: '}${(err as Error).message}\n`);
    process.exit(1);
  }
  if (cmd.writeConfigTo) {
    writeFileSync(cmd.writeConfigTo, renderKubeProxyConfig({ mode: cmd.config.mode, clusterCIDR: cmd.config.clusterCIDR }));
    process.stderr.write(`Wrote configuration to: ${cmd.writeConfigTo}\n`);
    return;
  }
  const logger = createLogger({ component: 'kube-proxy', node: cmd.nodeName });
  let natsTls;
  let apiserver;
  try {
    natsTls = readNatsTls(cmd.natsTlsFiles);
    apiserver = cmd.kubeconfig ? credentialsFromKubeconfig(cmd.kubeconfig) : undefined;
  } catch (err) {
    process.stderr.write(`${err instanceof FlagError ? '' : 'Error: '}${(err as Error).message}\n`);
    process.exit(1);
  }
  // 'sync' context: only client spans, started inside each call; no per-promise hook.
  const tracing = setupTracing({ serviceName: 'kube-proxy', node: cmd.nodeName, contextPropagation: 'sync', ...cmd.tracing });
  const kp = await startKubeProxy({
    nodeName: cmd.nodeName,
    config: cmd.config,
    apiserverAddress: cmd.apiserverAddress,
    // A client certificate (kubelab up's system:kube-proxy), or kubeadm's way: the kube-proxy ServiceAccount's token (tokenFile, a joined node's).
    ...(apiserver ? { apiserverTls: apiserver.tls, ...(apiserver.bearerToken ? { apiserverBearerToken: apiserver.bearerToken } : {}) } : {}),
    serviceCIDR: cmd.serviceCIDR,
    nodeIPs: cmd.nodeIPs,
    apply: cmd.apply,
    ...(cmd.socketLbDir ? { socketLbDir: cmd.socketLbDir } : {}),
    ...(cmd.natsUrl ? { natsUrl: cmd.natsUrl } : {}),
    ...(natsTls ? { natsTls } : {}),
    tracing,
    logger,
  });
  logger.info('kube-proxy started', { mode: kp.mode, healthzPort: kp.healthzPort, metricsPort: kp.metricsPort });
  onShutdown(async () => {
    logger.info('Shutting down');
    await kp.stop();
    await tracing.shutdown();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`kube-proxy: ${(err as Error).message}\n`);
  process.exit(1);
});
