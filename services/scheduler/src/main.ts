#!/usr/bin/env node
// kube-scheduler's process entry: flags → startScheduler → run until a signal.

import { createLogger, FlagError, onShutdown } from '@kubelab/component-base';
import { DEFAULT_APISERVER_ADDRESS, schedulerFlags } from './options.js';
import { defaultProfile } from './framework/profile.js';
import { startScheduler } from './server.js';

async function main(): Promise<void> {
  const log = createLogger({ component: 'kube-scheduler' });
  let values;
  try {
    values = schedulerFlags().parse(process.argv.slice(2)).values;
  } catch (err) {
    if (err instanceof FlagError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (values['leader-elect-resource-lock'] !== 'leases') {
    process.stderr.write(`invalid argument "${values['leader-elect-resource-lock']}" for "--leader-elect-resource-lock" flag: only "leases" is supported\n`);
    process.exit(2);
  }
  const profile = defaultProfile(values['scheduler-name']);
  profile.percentageOfNodesToScore = values['percentage-of-nodes-to-score'];
  const running = await startScheduler({
    master: values.master || values.apiserver || DEFAULT_APISERVER_ADDRESS,
    bindAddress: values['bind-address'],
    securePort: values['secure-port'],
    leaderElect: values['leader-elect'],
    leaseDurationMs: values['leader-elect-lease-duration'],
    renewDeadlineMs: values['leader-elect-renew-deadline'],
    retryPeriodMs: values['leader-elect-retry-period'],
    resourceName: values['leader-elect-resource-name'],
    resourceNamespace: values['leader-elect-resource-namespace'],
    podInitialBackoffMs: values['pod-initial-backoff-seconds'] * 1000,
    podMaxBackoffMs: values['pod-max-backoff-seconds'] * 1000,
    profiles: [profile],
    logger: log,
    // Upstream exits when leadership is lost, so a restart campaigns afresh.
    onLeadershipLost: () => process.exit(1),
  });
  log.info('kube-scheduler started', { healthPort: running.healthPort, identity: running.identity });
  onShutdown(async () => {
    await running.stop();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`kube-scheduler: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
