#!/usr/bin/env node
// kubelet process entry: flags (upstream names, KUBELAB_* env), tracing,
// then run until SIGTERM/SIGINT.

import { join } from 'node:path';
import { FlagError, apiserverAddressFrom, createLogger, onShutdown } from '@kubelab/component-base';
import { clientTlsFromKubeconfig } from '@kubelab/client';
import { setupTracing, tracingOptionsFromFlags } from '@kubelab/tracing';
import { parseThresholdConfig } from './eviction/thresholds.js';
import { loadClientCert, startKubelet } from './index.js';
import { defaultHostname, kubeletFlags, parseFeatureGates, parseLabels, parseTaints } from './options.js';

async function main(): Promise<void> {
  let values;
  try {
    values = kubeletFlags().parse(process.argv.slice(2)).values;
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const nodeName = (values['hostname-override'] || defaultHostname()).toLowerCase();
  const log = createLogger({ component: 'kubelet', node: nodeName });
  // 'sync' context: a sync's span reaches its CRI and API calls explicitly (Kubelet.syncScope),
  // so no AsyncLocalStorage hook on every promise of the process.
  const tracing = setupTracing({ serviceName: 'kubelet', node: nodeName, contextPropagation: 'sync', ...tracingOptionsFromFlags(values) });
  const certDir = values['cert-dir'] || join(values['root-dir'], 'pki');
  if (values['bootstrap-kubeconfig']) {
    if (!values.kubeconfig) throw new Error('--bootstrap-kubeconfig needs --kubeconfig: where to write the identity it obtains');
    await loadClientCert({ kubeconfigPath: values.kubeconfig, bootstrapKubeconfigPath: values['bootstrap-kubeconfig'], certDir, nodeName, log });
  }
  const k = await startKubelet({
    apiserver: apiserverAddressFrom(values),
    ...(values.kubeconfig ? { apiserverTls: clientTlsFromKubeconfig(values.kubeconfig) } : {}),
    rotateCertificates: values['rotate-certificates'],
    certDir,
    nodeName,
    nodeIP: values['node-ip'],
    nodeLabels: parseLabels(values['node-labels']),
    registerWithTaints: parseTaints(values['register-with-taints']),
    containerRuntimeEndpoint: values['container-runtime-endpoint'],
    podManifestPath: values['pod-manifest-path'],
    fileCheckFrequencyMs: values['file-check-frequency'],
    nodeStatusUpdateFrequencyMs: values['node-status-update-frequency'],
    nodeStatusReportFrequencyMs: values['node-status-report-frequency'],
    nodeLeaseDurationSeconds: values['node-lease-duration-seconds'],
    maxPods: values['max-pods'],
    rootDir: values['root-dir'],
    podLogsDir: values['pod-logs-dir'],
    address: values.address,
    port: values.port,
    healthzBindAddress: values['healthz-bind-address'],
    healthzPort: values['healthz-port'] === 0 ? -1 : values['healthz-port'],
    syncFrequencyMs: values['sync-frequency'],
    registerNode: values['register-node'],
    timeScale: values['time-scale'],
    featureGates: parseFeatureGates(values['feature-gates']),
    evictionThresholds: parseThresholdConfig({
      hard: values['eviction-hard'],
      soft: values['eviction-soft'],
      softGracePeriod: values['eviction-soft-grace-period'],
      minimumReclaim: values['eviction-minimum-reclaim'],
    }),
    evictionPressureTransitionPeriodMs: values['eviction-pressure-transition-period'],
    evictionMaxPodGracePeriodSeconds: values['eviction-max-pod-grace-period'],
    tracing,
    logger: log,
  });
  onShutdown(async () => {
    await k.stop();
    await tracing.shutdown();
  });
}

main().catch((err) => {
  process.stderr.write(`kubelet: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
