#!/usr/bin/env node
// kube-controller-manager's process entry: flags → startControllerManager →
// run until a signal; losing leadership ends the process as upstream does.

import { createLogger, FlagError, onShutdown } from '@kubelab/component-base';
import { startControllerManager } from './controller-manager.js';
import { defaultRegistry } from './controllers/index.js';
import { configFromFlags, controllerManagerFlags } from './options.js';

async function main(): Promise<void> {
  const log = createLogger({ component: 'kube-controller-manager' });
  let values;
  try {
    values = controllerManagerFlags().parse(process.argv.slice(2)).values;
    if (values['leader-elect-resource-lock'] !== 'leases') {
      throw new FlagError(`invalid argument "${values['leader-elect-resource-lock']}" for "--leader-elect-resource-lock" flag: only "leases" is supported`);
    }
    defaultRegistry().select(values.controllers);
  } catch (err) {
    if (err instanceof FlagError || err instanceof Error) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const running = await startControllerManager({
    apiserverAddress: values.master || values.apiserver || values['apiserver-grpc-address'],
    bindAddress: values['bind-address'],
    securePort: values['secure-port'],
    leaderElect: values['leader-elect'],
    leaseDurationMs: values['leader-elect-lease-duration'],
    renewDeadlineMs: values['leader-elect-renew-deadline'],
    retryPeriodMs: values['leader-elect-retry-period'],
    resourceName: values['leader-elect-resource-name'],
    resourceNamespace: values['leader-elect-resource-namespace'],
    config: configFromFlags(values),
    logger: log,
    onLeadershipLost: () => process.exit(1),
  });
  log.info('kube-controller-manager started', { healthPort: running.healthPort, identity: running.identity });
  onShutdown(async () => {
    await running.stop();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`kube-controller-manager: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
