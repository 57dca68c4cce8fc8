// metrics-server's command line (upstream cmd/metrics-server/app/options):
// its flag names and defaults, plus kubelab's apiserver address and
// --kubeconfig identity as every kubelab component takes them.

import { FlagError, FlagSet, withApiserverFlags } from '@kubelab/component-base';

export function metricsServerFlags() {
  return withApiserverFlags(new FlagSet('metrics-server'))
    .duration('metric-resolution', 15_000, 'The resolution at which metrics-server will retain metrics, must set value at least 10s.')
    .int('secure-port', 10250, "The port on which to serve HTTPS with authentication and authorization. If 0, don't serve HTTPS at all.")
    .string('bind-address', '0.0.0.0', 'The IP address on which to listen for the --secure-port port.')
    .string('cert-dir', '', 'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored.')
    .string('tls-cert-file', '', 'File containing the default x509 Certificate for HTTPS.')
    .string('tls-private-key-file', '', 'File containing the default x509 private key matching --tls-cert-file.')
    .string(
      'client-ca-file',
      '',
      "If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate. Default: the extension-apiserver-authentication ConfigMap's.",
    )
    .string(
      'requestheader-client-ca-file',
      '',
      "Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers. Default: the extension-apiserver-authentication ConfigMap's.",
    )
    .stringArray(
      'kubelet-preferred-address-types',
      ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'],
      'The priority of node address types to use when determining which address to use to connect to a particular node',
    )
    .bool('kubelet-use-node-status-port', false, 'Use the port in the node status. Takes precedence over --kubelet-port flag.')
    .int('kubelet-port', 10250, 'The port to use to connect to Kubelets.')
    .bool('kubelet-insecure-tls', false, 'Do not verify CA of serving certificates presented by Kubelets.  For testing purposes only.')
    .string('kubelet-certificate-authority', '', "Path to the CA to use to validate the Kubelet's serving certificates.")
    .string('kubelet-client-certificate', '', 'Path to a client cert file for TLS.')
    .string('kubelet-client-key', '', 'Path to a client key file for TLS.')
    .duration(
      'kubelet-request-timeout',
      10_000,
      'The length of time to wait before giving up on a single request to Kubelet. Non-zero values should contain a corresponding time unit (e.g. 1s, 2m, 3h).',
    );
}

/** upstream Options.validate: a resolution under 10 s is refused. */
export function validateResolution(ms: number): void {
  if (ms < 10_000) throw new FlagError('metric-resolution should be a time duration at least 10s, but value 0s provided'.replace('0s', `${ms / 1000}s`));
}
