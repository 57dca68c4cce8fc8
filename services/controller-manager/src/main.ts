#!/usr/bin/env node
// kube-controller-manager's process entry: flags → startControllerManager →
// run until a signal; losing leadership ends the process as upstream does.

import { apiserverAddressFrom, createLogger, FlagError, leaderElectionFrom, onShutdown, runMain, securePortConfigFrom, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { clientTlsFromKubeconfig, reviewKubeconfigs } from '@kubelab/client';
import { loadKubeconfig } from '@kubelab/pki/kubeconfig';
import { setupTracing, tracingOptionsFromFlags } from '@kubelab/tracing';
import { startControllerManager } from './controller-manager.js';
import { defaultRegistry } from './controllers/index.js';
import { configFromFlags, controllerManagerFlags } from './options.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

runMain('kube-controller-manager', async () => {
  const log = createLogger({ component: 'kube-controller-manager' });
  const values = controllerManagerFlags().parse(process.argv.slice(2)).values;
  const leaderElection = leaderElectionFrom(values);
  const secureServing = securePortConfigFrom(values);
  try {
    defaultRegistry().select(values.controllers);
  } catch (err) {
    throw new FlagError((err as Error).message);
  }
  // 'sync' context: only client spans, started inside each call; no per-promise hook.
  const tracing = setupTracing({ serviceName: 'kube-controller-manager', contextPropagation: 'sync', ...tracingOptionsFromFlags(values) });
  const running = await startControllerManager({
    apiserverAddress: apiserverAddressFrom(values),
    ...(values.kubeconfig ? { apiserverTls: clientTlsFromKubeconfig(values.kubeconfig), apiserverUrl: loadKubeconfig(values.kubeconfig).server } : {}),
    bindAddress: values['bind-address'],
    securePort: values['secure-port'],
    secureServing,
    ...reviewKubeconfigs(values),
    ...leaderElection,
    config: configFromFlags(values),
    tracing,
    logger: log,
    onLeadershipLost: () => process.exit(1),
  });
  log.info('kube-controller-manager started', { healthPort: running.healthPort, identity: running.identity });
  onShutdown(async () => {
    await running.stop();
    await tracing.shutdown();
  });
});
