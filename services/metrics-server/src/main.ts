#!/usr/bin/env node
// metrics-server's entry point: parse flags, start, stop on SIGTERM.

import { clientTlsFromKubeconfig } from '@kubelab/client';
import { apiserverAddressFrom, createLogger, FlagError, onShutdown, readFlagFile, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { metricsServerFlags, validateResolution } from './options.js';
import { startMetricsServer } from './server.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = metricsServerFlags().parse(process.argv.slice(2)));
    validateResolution(values['metric-resolution']);
    if (!values['tls-cert-file'] !== !values['tls-private-key-file']) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  } catch (err) {
    process.stderr.write(`${err instanceof FlagError ? '' : 'Error: '}${(err as Error).message}\n`);
    process.exit(1);
  }
  const read = (flag: string, path: string) => (path ? readFlagFile(flag, path) : undefined);
  const logger = createLogger({ component: 'metrics-server' });
  const tls = values.kubeconfig ? clientTlsFromKubeconfig(values.kubeconfig) : undefined;
  const clientCaPem = read('client-ca-file', values['client-ca-file']);
  const requestHeaderCa = read('requestheader-client-ca-file', values['requestheader-client-ca-file']);
  const kubeletCert = read('kubelet-client-certificate', values['kubelet-client-certificate']);
  const kubeletKey = read('kubelet-client-key', values['kubelet-client-key']);
  const kubeletCa = read('kubelet-certificate-authority', values['kubelet-certificate-authority']);
  const ms = await startMetricsServer({
    apiserverAddress: apiserverAddressFrom(values),
    ...(tls ? { apiserverTls: tls } : {}),
    bindAddress: values['bind-address'],
    securePort: values['secure-port'],
    certDir: values['cert-dir'],
    ...(values['tls-cert-file']
      ? { servingTls: { certPem: readFlagFile('tls-cert-file', values['tls-cert-file']), keyPem: readFlagFile('tls-private-key-file', values['tls-private-key-file']) } }
      : {}),
    metricResolutionMs: values['metric-resolution'],
    ...(clientCaPem ? { clientCaPem } : {}),
    ...(requestHeaderCa
      ? { requestHeader: { clientCaPem: requestHeaderCa, allowedNames: [], usernameHeaders: ['X-Remote-User'], groupHeaders: ['X-Remote-Group'], extraHeadersPrefix: ['X-Remote-Extra-'] } }
      : {}),
    kubelet: {
      addressTypes: values['kubelet-preferred-address-types'],
      useNodeStatusPort: values['kubelet-use-node-status-port'],
      kubeletPort: values['kubelet-port'],
      insecure: values['kubelet-insecure-tls'],
      timeoutMs: values['kubelet-request-timeout'],
      ...(kubeletCert && kubeletKey ? { certPem: kubeletCert, keyPem: kubeletKey } : {}),
      ...(kubeletCa ? { caPem: kubeletCa } : {}),
    },
    logger,
  });
  onShutdown(async () => {
    logger.info('Shutting down');
    await ms.stop();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`metrics-server: ${(err as Error).message}\n`);
  process.exit(1);
});
