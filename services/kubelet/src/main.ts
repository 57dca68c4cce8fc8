#!/usr/bin/env node
// kubelet process entry: flags (upstream names, KUBELAB_* env), tracing,
// then run until SIGTERM/SIGINT.

import { join } from 'node:path';
import { FlagError, apiserverAddressFrom, createLogger, onShutdown, readFlagFile, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { clientTlsFromKubeconfig } from '@kubelab/client';
import { setupTracing, tracingOptionsFromFlags } from '@kubelab/tracing';
import { parseThresholdConfig } from './eviction/thresholds.js';
import { AUTHORIZATION_MODES, loadClientCert, startKubelet, type AuthorizationMode, type KubeletOptions } from './index.js';
import { logRotatePolicy } from './kubelet-config.js';
import { KUBELET_VERSION } from './version.js';
import { defaultHostname, kubeletFlags, parseFeatureGates, parseLabels, parseTaints } from './options.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

type KubeletFlagValues = ReturnType<ReturnType<typeof kubeletFlags>['parse']>['values'];

/** The kubelet server's TLS and auth flags as startKubelet options; unreadable files and bad values are flag errors. */
function serverAuthFrom(values: KubeletFlagValues): Partial<KubeletOptions> {
  const read = (flag: 'tls-cert-file' | 'tls-private-key-file' | 'client-ca-file') => readFlagFile(flag, values[flag]);
  if (!values['tls-cert-file'] !== !values['tls-private-key-file']) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  const mode = values['authorization-mode'];
  if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode))
    throw new FlagError(`--authorization-mode: unsupported authorization mode ${JSON.stringify(mode)} (valid: ${AUTHORIZATION_MODES.join(', ')})`);
  return {
    ...(values['tls-cert-file'] ? { servingTls: { certPem: read('tls-cert-file'), keyPem: read('tls-private-key-file') } } : {}),
    ...(values['cert-dir'] ? { certDir: values['cert-dir'] } : {}),
    ...(values['client-ca-file'] ? { clientCaPem: read('client-ca-file') } : {}),
    anonymousAuth: values['anonymous-auth'],
    authenticationTokenWebhook: values['authentication-token-webhook'],
    authorizationMode: mode as AuthorizationMode,
    webhookCacheTtlMs: {
      token: values['authentication-token-webhook-cache-ttl'],
      authorized: values['authorization-webhook-cache-authorized-ttl'],
      unauthorized: values['authorization-webhook-cache-unauthorized-ttl'],
    },
  };
}

/** --container-log-max-size/--container-log-max-files, checked as upstream validates them. */
function logRotatePolicyFrom(values: KubeletFlagValues): void {
  try {
    logRotatePolicy({ containerLogMaxSize: values['container-log-max-size'], containerLogMaxFiles: values['container-log-max-files'] });
  } catch (e) {
    throw new FlagError((e as Error).message);
  }
}

async function main(): Promise<void> {
  let values;
  let serverAuth;
  try {
    values = kubeletFlags().parse(process.argv.slice(2)).values;
    serverAuth = serverAuthFrom(values);
    logRotatePolicyFrom(values);
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const nodeName = (values['hostname-override'] || defaultHostname()).toLowerCase();
  const log = createLogger({ component: 'kubelet', node: nodeName, verbosity: values.v });
  // Upstream Run logs the version first thing.
  log.info('Kubelet version', { kubeletVersion: KUBELET_VERSION });
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
    runtimeRequestTimeoutMs: values['runtime-request-timeout'],
    podManifestPath: values['pod-manifest-path'],
    fileCheckFrequencyMs: values['file-check-frequency'],
    nodeStatusUpdateFrequencyMs: values['node-status-update-frequency'],
    nodeStatusReportFrequencyMs: values['node-status-report-frequency'],
    nodeLeaseDurationSeconds: values['node-lease-duration-seconds'],
    maxPods: values['max-pods'],
    containerLogMaxSize: values['container-log-max-size'],
    containerLogMaxFiles: values['container-log-max-files'],
    clusterDNS: values['cluster-dns'],
    clusterDomain: values['cluster-domain'],
    resolvConf: values['resolv-conf'],
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
    ...serverAuth,
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
