#!/usr/bin/env node
// The dashboard's entry point: flags, the apiserver and NATS connections, the
// live state, the HTTP server; stops on SIGTERM.

import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { clientTlsFromKubeconfig, createClientset } from '@kubelab/client';
import { apiserverAddressFrom, createLogger, FlagError, onShutdown } from '@kubelab/component-base';
import { DASHBOARD_NATS_IDENTITY, natsAuthOptions, readNatsTls } from '@kubelab/nats';
import { Live } from './live.js';
import { dashboardFlags } from './options.js';
import { startDashboardServer } from './server.js';

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = dashboardFlags().parse(process.argv.slice(2)));
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
  const dash = await startDashboardServer({ live, ...(clientset ? { clientset } : {}), ...(nc ? { nats: nc } : {}), webDir, bindAddress: values['bind-address'], port: values.port });
  logger.info('Serving the dashboard', { url: dash.url });
  live.start().catch((e: unknown) => logger.error('Watches failed', { err: (e as Error).message }));
  onShutdown(async () => {
    logger.info('Shutting down');
    await dash.close();
    await live.stop();
    clientset?.close();
    await nc?.close();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`kubelab-dashboard: ${(err as Error).message}\n`);
  process.exit(1);
});
