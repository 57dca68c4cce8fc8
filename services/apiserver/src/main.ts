#!/usr/bin/env node
// kube-apiserver for kubelab: upstream flag names where they exist.

import { createLogger, FlagError, FlagSet, onShutdown } from '@kubelab/component-base';
import { addTracingFlags, setupTracing, TracingConfigError, tracingOptionsFromFlags, type Tracing } from '@kubelab/tracing';
import { AuthorizationModeError, parseAuthorizationModes } from './authorization/modes.js';
import { startApiserver } from './server.js';

const flags = addTracingFlags(
  new FlagSet('kube-apiserver')
    .int('secure-port', 6443, 'The port on which to serve the REST API, health and metrics (plain HTTP for now). 0 picks a free port.')
    .string('bind-address', '0.0.0.0', 'The IP address on which to listen for the --secure-port and --grpc-port.')
    .string('authorization-mode', 'AlwaysAllow', 'Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,Node,RBAC.')
    .string('advertise-address', '', 'The IP address published in the kubernetes EndpointSlice (default: --bind-address or the first non-loopback IPv4).')
    .string('service-cluster-ip-range', '10.96.0.0/12', 'A CIDR notation IP range from which to assign service cluster IPs.')
    .string('service-node-port-range', '30000-32767', 'A port range to reserve for services with NodePort visibility.')
    .int('default-not-ready-toleration-seconds', 300, 'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod.')
    .int('default-unreachable-toleration-seconds', 300, 'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod.')
    .int('watch-cache-size', 10000, 'Events kept in the watch cache for resuming watches.')
    .int('grpc-port', 6444, 'kubelab: the port of the component gRPC API. 0 picks a free port.')
    .string('nats-url', 'nats://127.0.0.1:4222', "kubelab: the NATS server (JetStream) that stores the cluster state (etcd's role).")
    .string('kv-bucket', 'kubelab', 'kubelab: the JetStream KV bucket holding every object.'),
);

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = flags.parse(process.argv.slice(2)));
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const log = createLogger({ component: 'kube-apiserver' });
  let tracing: Tracing;
  try {
    // upstream's apiserver reports service.name "apiserver". 'sync' context: request
    // spans reach the registry and storage explicitly (RequestContext.traceContext),
    // so no AsyncLocalStorage hook on every promise of the process.
    tracing = setupTracing({ serviceName: 'apiserver', contextPropagation: 'sync', ...tracingOptionsFromFlags(values) });
  } catch (e) {
    if (e instanceof TracingConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  if (tracing.enabled) log.info('tracing enabled', { endpoint: tracing.config.endpoint, samplingRatePerMillion: tracing.config.samplingRatePerMillion ?? 'parent-based only' });
  const authorizationModes = parseAuthorizationModes(values['authorization-mode']);
  const server = await startApiserver({
    authorizationModes,
    natsUrl: values['nats-url'],
    bucket: values['kv-bucket'],
    bindAddress: values['bind-address'],
    securePort: values['secure-port'],
    grpcPort: values['grpc-port'],
    ...(values['advertise-address'] ? { advertiseAddress: values['advertise-address'] } : {}),
    serviceClusterIpRange: values['service-cluster-ip-range'],
    serviceNodePortRange: values['service-node-port-range'],
    defaultNotReadyTolerationSeconds: values['default-not-ready-toleration-seconds'],
    defaultUnreachableTolerationSeconds: values['default-unreachable-toleration-seconds'],
    watchCacheSize: values['watch-cache-size'],
    logger: log,
    tracing,
  });
  log.info('serving', { securePort: server.restPort, grpcPort: server.grpcPort });
  onShutdown(async () => {
    log.info('shutting down');
    await server.stop();
    await tracing.shutdown();
  });
  await server.ready;
}

main().catch((err: unknown) => {
  if (err instanceof AuthorizationModeError) {
    process.stderr.write(`kube-apiserver: invalid argument: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`kube-apiserver: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
