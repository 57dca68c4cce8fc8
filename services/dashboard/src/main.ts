#!/usr/bin/env node
// The dashboard's entry point: flags, the apiserver and NATS connections, the
// live state, the HTTP server; stops on SIGTERM.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { clientTlsFromKubeconfig, createClientset } from '@kubelab/client';
import { apiserverAddressFrom, createLogger, FlagError, onShutdown, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { DASHBOARD_NATS_IDENTITY, natsAuthOptions, readNatsTls } from '@kubelab/nats';
import { Live } from './live.js';
import { dashboardFlags } from './options.js';
import { OtlpForwarder, startOtlpGrpc, type RunningOtlpGrpc } from './receiver.js';
import { startDashboardServer } from './server.js';
import { SpanStore } from './spans.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = dashboardFlags().parse(process.argv.slice(2)));
    if (values['otlp-grpc-port'] < 0 || values['otlp-grpc-port'] > 65535) throw new FlagError(`--otlp-grpc-port must be from 0 to 65535, got ${values['otlp-grpc-port']}`);
    if (values['otlp-max-spans'] < 100 || values['otlp-max-spans'] > 1_000_000) throw new FlagError(`--otlp-max-spans must be from 100 to 1000000, got ${values['otlp-max-spans']}`);
    if (values['flow-buffer'] < 100 || values['flow-buffer'] > 100_000) throw new FlagError(`--flow-buffer must be from 100 to 100000, got ${values['flow-buffer']}`);
  } catch (err) {
    process.stderr.write(`${err instanceof FlagError ? '' : 'Error: '}${(err as Error).message}\n`);
    process.exit(1);
  }
  const logger = createLogger({ component: 'kubelab-dashboard' });
  const natsTls = readNatsTls({ caFile: values['nats-ca-file'], certFile: values['nats-cert-file'], keyFile: values['nats-key-file'] });
  let nc: NatsConnection | undefined;
  if (values['nats-url']) {
    nc = await connect({
      servers: values['nats-url'],
      name: 'kubelab-dashboard',
      timeout: 5000,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      ...natsAuthOptions(DASHBOARD_NATS_IDENTITY, natsTls),
    });
    logger.info('Connected to NATS', { url: values['nats-url'] });
  }
  const clientset = values.watch
    ? createClientset({
        address: apiserverAddressFrom(values),
        component: 'kubelab-dashboard',
        ...(values.kubeconfig ? { tls: clientTlsFromKubeconfig(values.kubeconfig) } : {}),
      })
    : undefined;
  const live = new Live({
    ...(clientset ? { clientset } : {}),
    ...(nc ? { nats: nc } : {}),
    bufferSize: values['flow-buffer'],
    nodeMonitorGracePeriodMs: values['node-monitor-grace-period'],
    note: (message) => logger.info(message),
  });
  const webDir = values['web-dir'] || join(dirname(fileURLToPath(import.meta.url)), 'web');
  const spans = new SpanStore({ maxSpans: values['otlp-max-spans'] });
  const forwarder = values['otlp-forward-endpoint'] ? new OtlpForwarder(values['otlp-forward-endpoint'], (m) => logger.info(m)) : undefined;
  const dash = await startDashboardServer({
    live,
    ...(clientset ? { clientset } : {}),
    ...(nc ? { nats: nc } : {}),
    webDir,
    bindAddress: values['bind-address'],
    port: values.port,
    spans,
    ...(forwarder ? { forwarder } : {}),
  });
  logger.info('Serving the dashboard', { url: dash.url, otlpHttp: `${dash.url}v1/traces` });
  let otlp: RunningOtlpGrpc | undefined;
  if (values['otlp-grpc-port'] > 0) {
    otlp = await startOtlpGrpc({ store: spans, bindAddress: values['bind-address'], port: values['otlp-grpc-port'], ...(forwarder ? { forwarder } : {}) });
    logger.info('Receiving OTLP/gRPC traces', { address: `${values['bind-address']}:${otlp.port}` });
  }
  live.start().catch((e: unknown) => logger.error('Watches failed', { err: (e as Error).message }));
  onShutdown(async () => {
    logger.info('Shutting down');
    await dash.close();
    await otlp?.close();
    forwarder?.close();
    spans.close();
    await live.stop();
    clientset?.close();
    await nc?.close();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`kubelab-dashboard: ${(err as Error).message}\n`);
  process.exit(1);
});
