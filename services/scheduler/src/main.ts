#!/usr/bin/env node
// kube-scheduler's process entry: flags → startScheduler → run until a signal.

import { apiserverAddressFrom, createLogger, leaderElectionFrom, onShutdown, runMain, securePortConfigFrom, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { clientTlsFromKubeconfig, reviewKubeconfigs } from '@kubelab/client';
import { setupTracing, tracingOptionsFromFlags } from '@kubelab/tracing';
import { readNatsTls } from '@kubelab/nats';
import { connectDecisionPublisher } from './decision/publisher.js';
import { schedulerFlags } from './options.js';
import { defaultProfile } from './framework/profile.js';
import { startScheduler } from './server.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

runMain('kube-scheduler', async () => {
  const log = createLogger({ component: 'kube-scheduler' });
  const values = schedulerFlags().parse(process.argv.slice(2)).values;
  const leaderElection = leaderElectionFrom(values);
  // 'sync' context: the bind passes the pod's trace context to the client explicitly, no per-promise hook.
  const tracing = setupTracing({ serviceName: 'kube-scheduler', contextPropagation: 'sync', ...tracingOptionsFromFlags(values) });
  const secureServing = securePortConfigFrom(values);
  // Decision records on NATS: connected in the background, so a NATS that is down never holds scheduling up.
  const natsTls = readNatsTls({ caFile: values['nats-ca-file'], certFile: values['nats-cert-file'], keyFile: values['nats-key-file'] });
  const publisher = values['nats-url'] ? connectDecisionPublisher({ url: values['nats-url'], ...(natsTls ? { tls: natsTls } : {}), logger: log }) : undefined;
  const profile = defaultProfile(values['scheduler-name']);
  profile.percentageOfNodesToScore = values['percentage-of-nodes-to-score'];
  const running = await startScheduler({
    apiserverAddress: apiserverAddressFrom(values),
    ...(values.kubeconfig ? { apiserverTls: clientTlsFromKubeconfig(values.kubeconfig) } : {}),
    bindAddress: values['bind-address'],
    securePort: values['secure-port'],
    secureServing,
    ...reviewKubeconfigs(values),
    ...leaderElection,
    podInitialBackoffMs: values['pod-initial-backoff-seconds'] * 1000,
    podMaxBackoffMs: values['pod-max-backoff-seconds'] * 1000,
    profiles: [profile],
    ...(publisher ? { decisions: publisher.publish, decisionsActive: publisher.wanted } : {}),
    tracing,
    logger: log,
    // Upstream exits when leadership is lost, so a restart campaigns afresh.
    onLeadershipLost: () => process.exit(1),
  });
  log.info('kube-scheduler started', { healthPort: running.healthPort, identity: running.identity });
  onShutdown(async () => {
    await running.stop();
    await publisher?.close();
    await tracing.shutdown();
  });
});
