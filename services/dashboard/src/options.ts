// The dashboard's command line: where it serves, how it reaches the
// apiserver (--kubeconfig, the ServiceAccount's identity) and NATS (the
// kubelab:dashboard identity's certificate), and how much flow it keeps.

import { FlagSet, withApiserverFlags } from '@kubelab/component-base';

export const DEFAULT_PORT = 9090;

export function dashboardFlags() {
  return withApiserverFlags(new FlagSet('kubelab-dashboard'))
    .string('bind-address', '127.0.0.1', 'The IP address on which to serve the dashboard.')
    .int('port', DEFAULT_PORT, 'The port on which to serve the dashboard (HTTP).')
    .string('nats-url', '', 'NATS, for the CRI and API records (unset: no flow from NATS).')
    .string('nats-ca-file', '', "The CA that signed the NATS server's certificate.")
    .string('nats-cert-file', '', "The client certificate (kubelab:dashboard's: the records, and the nodes' control requests).")
    .string('nats-key-file', '', 'The key of --nats-cert-file.')
    .int('flow-buffer', 5000, 'How many flow messages are kept for replay.')
    .duration('node-monitor-grace-period', 50_000, "The controller-manager's --node-monitor-grace-period, for the NotReady countdown on the map.")
    .bool('watch', true, 'Watch nodes, pods, leases, deployments and events through the apiserver (--watch=false: NATS records only).')
    .int('otlp-grpc-port', 0, "The port of the OTLP/gRPC trace receiver (the components' --tracing-endpoint); 0: none. OTLP/HTTP is always served on --port at POST /v1/traces.")
    .string('otlp-forward-endpoint', '', 'Another OTLP/gRPC collector (host:port, e.g. jaeger:4317) each received protobuf export is sent on to; empty: none.')
    .int('otlp-max-spans', 20_000, 'How many received spans are kept (the least recently updated traces go first).')
    .string('web-dir', '', 'The built page (default: dist/web beside this program).');
}
