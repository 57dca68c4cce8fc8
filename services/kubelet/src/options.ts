// The kubelet's flags with upstream names and defaults (upstream
// cmd/kubelet/app/options), plus kubelab's shared --apiserver-grpc-address
// (the gRPC address; --kubeconfig holds the identity; --apiserver stays an alias),
// --pod-logs-dir (upstream sets podLogsDir only in the config file), the
// eviction flags (upstream names, defaults and `<`/`=` map syntax), the
// tracing flags and --time-scale (documented compression of the kubelet's
// own timers).

import { hostname as osHostname, networkInterfaces } from 'node:os';
import type { Taint } from '@kubelab/api';
import { FlagSet, withApiserverFlags } from '@kubelab/component-base';
import { addTracingFlags } from '@kubelab/tracing';
import { DEFAULT_EVICTION_HARD } from './eviction/thresholds.js';

export function kubeletFlags() {
  return addTracingFlags(withApiserverFlags(new FlagSet('kubelet')))
    .string('hostname-override', '', 'If non-empty, will use this string as identification instead of the actual hostname.')
    .string('node-ip', '', 'IP address of the node; the first non-loopback IPv4 address when empty.')
    .string('container-runtime-endpoint', 'unix:///run/containerd/containerd.sock', 'The endpoint of the remote runtime service.')
    .duration('runtime-request-timeout', 120_000, 'Timeout of all runtime requests except long running request - pull, logs, exec and attach.')
    .string('pod-manifest-path', '', 'Path to the directory containing static pod files to run.')
    .duration('file-check-frequency', 20_000, 'Duration between checking config files for new data.')
    .duration('node-status-update-frequency', 10_000, 'How often the kubelet computes node status.')
    .duration('node-status-report-frequency', 300_000, 'How often the kubelet posts node status when it did not change.')
    .int('node-lease-duration-seconds', 40, 'Duration the kubelet sets on its Lease; renewed every quarter of it.')
    .int('max-pods', 110, 'Number of pods that can run on this kubelet.')
    .string('container-log-max-size', '10Mi', 'Set the maximum size (e.g. 10Mi) of container log file before it is rotated.')
    .int('container-log-max-files', 5, 'Set the maximum number of container log files that can be present for a container. The number must be >= 2.')
    .stringArray('cluster-dns', [], 'Comma-separated list of DNS server IP address. This value is used for containers DNS server in case of Pods with "dnsPolicy=ClusterFirst".')
    .string('cluster-domain', '', "Domain for this cluster. If set, kubelet will configure all containers to search this domain in addition to the host's search domains.")
    .string('resolv-conf', '/etc/resolv.conf', 'Resolver configuration file used as the basis for the container DNS resolution configuration.')
    .string('root-dir', '/var/lib/kubelet', 'Directory path for managing kubelet files.')
    .int('v', 0, 'number for the log level verbosity')
    .string(
      'bootstrap-kubeconfig',
      '',
      'Path to a kubeconfig file that will be used to get client certificate for kubelet. If the file specified by --kubeconfig does not exist, the bootstrap kubeconfig is used to request a client certificate from the API server. On success, a kubeconfig file referencing the generated client certificate and key is written to the path specified by --kubeconfig. The client certificate and key file will be stored in the directory pointed by --cert-dir.',
    )
    .bool('rotate-certificates', false, 'Auto rotate the kubelet client certificates by requesting new certificates from the kube-apiserver when the certificate expiration approaches.')
    .string('pod-logs-dir', '/var/log/pods', 'kubelab: directory where container logs are written (upstream: the podLogsDir config field).')
    .string('address', '0.0.0.0', 'The IP address for the kubelet to serve on.')
    .int('port', 10250, 'The port for the kubelet to serve on.')
    .string(
      'tls-cert-file',
      '',
      'File containing x509 Certificate used for serving HTTPS (with intermediate certs, if any, concatenated after server cert). Without it a self-signed certificate and key are generated for the node into --cert-dir.',
    )
    .string('tls-private-key-file', '', 'File containing x509 private key matching --tls-cert-file.')
    .string('cert-dir', '', 'The directory where the TLS certs are located; ignored with --tls-cert-file and --tls-private-key-file. kubelab default: <root-dir>/pki (upstream: /var/lib/kubelet/pki).')
    .string(
      'client-ca-file',
      '',
      'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    )
    .bool('anonymous-auth', false, "Enables anonymous requests to the Kubelet server (as system:anonymous in system:unauthenticated). kubelab's default is kubeadm's kubelet configuration: false.")
    .bool('authentication-token-webhook', true, "Use the TokenReview API to determine authentication for bearer tokens. kubelab's default is kubeadm's: true.")
    .duration('authentication-token-webhook-cache-ttl', 120_000, 'The duration to cache responses from the webhook token authenticator.')
    .string(
      'authorization-mode',
      'Webhook',
      "Authorization mode for Kubelet server. Valid options are AlwaysAllow or Webhook. Webhook mode uses the SubjectAccessReview API to determine authorization. kubelab's default is kubeadm's: Webhook.",
    )
    .duration('authorization-webhook-cache-authorized-ttl', 300_000, "The duration to cache 'authorized' responses from the webhook authorizer.")
    .duration('authorization-webhook-cache-unauthorized-ttl', 30_000, "The duration to cache 'unauthorized' responses from the webhook authorizer.")
    .string('healthz-bind-address', '127.0.0.1', 'The IP address for the healthz server to serve on.')
    .int('healthz-port', 10248, 'The port of the localhost healthz endpoint (0 disables it).')
    .duration('sync-frequency', 60_000, 'Max period between synchronizing running containers.')
    .stringArray('node-labels', [], 'Labels to add when registering the node (key=value,...).')
    .stringArray('register-with-taints', [], 'Register the node with the given list of taints (comma separated "<key>=<value>:<effect>"). No-op if register-node is false.')
    .bool('register-node', true, 'Register the node with the apiserver.')
    .string('eviction-hard', DEFAULT_EVICTION_HARD, 'A set of eviction thresholds (e.g. memory.available<1Gi) that if met would trigger a pod eviction.')
    .string('eviction-soft', '', 'A set of eviction thresholds (e.g. memory.available<1.5Gi) that if met over a corresponding grace period would trigger a pod eviction.')
    .string(
      'eviction-soft-grace-period',
      '',
      'A set of eviction grace periods (e.g. memory.available=1m30s) that correspond to how long a soft eviction threshold must hold before triggering a pod eviction.',
    )
    .string(
      'eviction-minimum-reclaim',
      '',
      'A set of minimum reclaims (e.g. imagefs.available=2Gi) that describes the minimum amount of resource the kubelet will reclaim when performing a pod eviction if that resource is under pressure.',
    )
    .duration('eviction-pressure-transition-period', 300_000, 'Duration for which the kubelet has to wait before transitioning out of an eviction pressure condition.')
    .int('eviction-max-pod-grace-period', 0, 'Maximum allowed grace period (in seconds) to use when terminating pods in response to a soft eviction threshold being met.')
    .stringArray('feature-gates', [], 'key=true|false pairs for alpha/experimental features (EventedPLEG, RelaxedEnvironmentVariableValidation).')
    .float(
      'time-scale',
      1,
      'kubelab: kubelet time runs this many times faster than wall time (probe delays/periods/timeouts, crash-loop and image-pull back-off, runtime-down threshold), to match containerd --time-scale.',
    );
}

export function defaultNodeIP(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}

export function parseFeatureGates(list: string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const kv of list) {
    const [k, v] = kv.split('=');
    if (!k || (v !== 'true' && v !== 'false')) throw new Error(`invalid feature gate ${JSON.stringify(kv)}: expected Name=true|false`);
    out[k] = v === 'true';
  }
  return out;
}

const TAINT_EFFECTS = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

/** `<key>=<value>:<effect>` or `<key>:<effect>` (upstream taints.ParseTaints). */
export function parseTaints(list: string[]): Taint[] {
  return list.map((spec) => {
    const colon = spec.lastIndexOf(':');
    const effect = colon < 0 ? '' : spec.slice(colon + 1);
    const kv = colon < 0 ? spec : spec.slice(0, colon);
    if (!TAINT_EFFECTS.has(effect)) throw new Error(`invalid taint spec: ${spec}, unsupported taint effect ${JSON.stringify(effect)}`);
    const eq = kv.indexOf('=');
    const key = eq < 0 ? kv : kv.slice(0, eq);
    if (!key) throw new Error(`invalid taint spec: ${spec}`);
    return eq < 0 ? { key, effect: effect as Taint['effect'] } : { key, value: kv.slice(eq + 1), effect: effect as Taint['effect'] };
  });
}

export function parseLabels(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list) {
    const i = kv.indexOf('=');
    if (i <= 0) throw new Error(`invalid label ${JSON.stringify(kv)}: expected key=value`);
    out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

/** The node name when --hostname-override is empty: the host's name, lower-cased. */
export const defaultHostname = (): string => osHostname().toLowerCase();
