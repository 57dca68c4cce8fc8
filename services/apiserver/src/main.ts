#!/usr/bin/env node
// kube-apiserver for kubelab: upstream flag names where they exist.

import { createLogger, FlagError, FlagSet, onShutdown, readFlagFile, installLeanAsyncResourceBind } from '@kubelab/component-base';
import { endpointReconcilerType } from './reconcilers/endpoints.js';
import { addTracingFlags, setupTracing, TracingConfigError, tracingOptionsFromFlags, type Tracing } from '@kubelab/tracing';
import { anonymousAuthFrom, AuthenticationConfigError } from './authentication/config.js';
import { AuthorizationModeError, parseAuthorizationModes } from './authorization/modes.js';
import { readNatsTls } from '@kubelab/nats';
import { startApiserver } from './server.js';
import type { ServingTls } from './http/server.js';
import type { KubeletClientConfig } from './endpoints/kubelet-client.js';
import { DEFAULT_SERVICE_ACCOUNT_ISSUER, readServiceAccountKeys } from './serviceaccount/options.js';

// Off every HTTP/2 request this process makes: Node 20's per-call AsyncResource#bind cost (async-resource-bind.ts).
installLeanAsyncResourceBind();

const flags = addTracingFlags(
  new FlagSet('kube-apiserver')
    .int('secure-port', 6443, 'The port on which to serve HTTPS with authentication and authorization (the REST API, health and metrics). 0 picks a free port.')
    .string('tls-cert-file', '', 'File containing the default x509 Certificate for HTTPS (CA cert, if any, concatenated after server cert). Without it a self-signed certificate is generated.')
    .string('tls-private-key-file', '', 'File containing the default x509 private key matching --tls-cert-file.')
    .string(
      'client-ca-file',
      '',
      'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate.',
    )
    .bool(
      'anonymous-auth',
      true,
      'Enables anonymous requests to the secure port of the API server. Requests that are not rejected by another authentication method are treated as anonymous requests. Anonymous requests have a username of system:anonymous, and a group name of system:unauthenticated.',
    )
    .string('authentication-config', '', 'File with an AuthenticationConfiguration (apiserver.config.k8s.io/v1). kubelab reads its anonymous section: anonymous requests only on the listed paths.')
    .string('kubelet-client-certificate', '', 'Path to a client cert file for TLS (the apiserver towards kubelets).')
    .string('kubelet-client-key', '', 'Path to a client key file for TLS (the apiserver towards kubelets).')
    .string('kubelet-certificate-authority', '', "Path to a cert file for the certificate authority; without it the kubelets' serving certificates are not verified.")
    .string('bind-address', '0.0.0.0', 'The IP address on which to listen for the --secure-port and --grpc-port.')
    .string('authorization-mode', 'AlwaysAllow', 'Ordered list of plug-ins to do authorization on secure port. Comma-delimited list of: AlwaysAllow,AlwaysDeny,Node,RBAC.')
    .string('advertise-address', '', 'The IP address published in the kubernetes EndpointSlice (default: --bind-address or the first non-loopback IPv4).')
    .string('endpoint-reconciler-type', 'lease', "Use an endpoint reconciler (master-count, lease, none); none leaves the kubernetes Service's endpoints to the other apiservers.")
    .string('service-cluster-ip-range', '10.96.0.0/12', 'A CIDR notation IP range from which to assign service cluster IPs.')
    .string('service-node-port-range', '30000-32767', 'A port range to reserve for services with NodePort visibility.')
    .int('default-not-ready-toleration-seconds', 300, 'Indicates the tolerationSeconds of the toleration for notReady:NoExecute that is added by default to every pod.')
    .int('default-unreachable-toleration-seconds', 300, 'Indicates the tolerationSeconds of the toleration for unreachable:NoExecute that is added by default to every pod.')
    .string('disable-admission-plugins', '', 'Admission plugins to leave out although enabled by default (comma-separated), e.g. TaintNodesByCondition.')
    .int('watch-cache-size', 10000, 'Events kept in the watch cache for resuming watches.')
    .bool('enable-priority-and-fairness', true, 'If true, replace the max-in-flight handler with an enhanced one that queues and dispatches with priority and fairness')
    .int(
      'max-requests-inflight',
      400,
      "This and --max-mutating-requests-inflight are summed to determine the server's total concurrency limit (which must be positive) if --enable-priority-and-fairness is true.",
    )
    .int(
      'max-mutating-requests-inflight',
      200,
      "This and --max-requests-inflight are summed to determine the server's total concurrency limit (which must be positive) if --enable-priority-and-fairness is true.",
    )
    .stringArray(
      'service-account-issuer',
      [DEFAULT_SERVICE_ACCOUNT_ISSUER],
      "Identifier of the service account token issuer. The first one issues tokens; all are accepted. kubelab defaults to kubeadm's value.",
    )
    .stringArray(
      'service-account-key-file',
      [],
      'File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. May hold several keys and be given several times. Default: the public half of --service-account-signing-key-file.',
    )
    .string(
      'service-account-signing-key-file',
      '',
      'Path to the file that contains the current private key of the service account token issuer. Without it kubelab serves no TokenRequest API and mounts no kube-api-access volumes.',
    )
    .string(
      'service-account-jwks-uri',
      '',
      'Overrides the URI for the JSON Web Key Set in the discovery doc served at /.well-known/openid-configuration. Default: https://<advertise address>:<secure port>/openid/v1/jwks.',
    )
    .stringArray(
      'api-audiences',
      [],
      'Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. Default: the --service-account-issuer values.',
    )
    .duration('service-account-max-token-expiration', 0, 'The maximum validity duration of a token created by the service account token issuer. 0: no maximum.')
    .bool('service-account-extend-token-expiration', true, 'Turns on projected service account expiration extension during token generation.')
    .bool('enable-bootstrap-token-auth', false, "Enable to allow secrets of type 'bootstrap.kubernetes.io/token' in the 'kube-system' namespace to be used for TLS bootstrapping authentication.")
    .int('grpc-port', 6444, 'kubelab: the port of the component gRPC API. 0 picks a free port.')
    .string('nats-url', 'nats://127.0.0.1:4222', "kubelab: the NATS server (JetStream) that stores the cluster state (etcd's role); a comma list names every server of a NATS cluster.")
    .string('etcd-cafile', '', "SSL Certificate Authority file used to secure etcd communication (kubelab: NATS in etcd's role).")
    .string('etcd-certfile', '', 'SSL certification file used to secure etcd communication.')
    .string('etcd-keyfile', '', 'SSL key file used to secure etcd communication.')
    .string(
      'pod-network-mode',
      'pod-ip',
      "kubelab: how pods are reached for pods/proxy and services/proxy: pod-ip (dial the pod's IP, as upstream) or kubelet-tunnel (through the pod's kubelet port-forward, as the apiserver network proxy does where the control plane is off the pod network).",
    )
    .string('kv-bucket', 'kubelab', 'kubelab: the JetStream KV bucket holding every object.')
    .stringArray(
      'component-status-url',
      [],
      "kubelab: where `kubectl get componentstatuses` probes a component, as <name>=<healthz URL>, repeated (default: upstream's scheduler=https://127.0.0.1:10259/healthz and controller-manager=https://127.0.0.1:10257/healthz; the runners put their components elsewhere).",
    )
    .string('encryption-provider-config', '', "The file containing configuration for encryption providers to be used for storing secrets in NATS (etcd's role).")
    .string(
      'proxy-client-cert-file',
      '',
      'Client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request (proxying to extension apiservers).',
    )
    .string('proxy-client-key-file', '', 'Private key for the client certificate used to prove the identity of the aggregator or kube-apiserver when it must call out during a request.')
    .string(
      'requestheader-client-ca-file',
      '',
      'Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers.',
    )
    .stringArray(
      'requestheader-allowed-names',
      [],
      'List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed.',
    )
    .stringArray('requestheader-username-headers', [], 'List of request headers to inspect for usernames. X-Remote-User is common.')
    .stringArray('requestheader-group-headers', [], 'List of request headers to inspect for groups. X-Remote-Group is suggested.')
    .stringArray('requestheader-extra-headers-prefix', [], 'List of request header prefixes to inspect. X-Remote-Extra- is suggested.'),
);

/** The aggregator's --proxy-client-* pair and the --requestheader-* settings it publishes. */
function aggregatorFrom(values: {
  'proxy-client-cert-file': string;
  'proxy-client-key-file': string;
  'requestheader-client-ca-file': string;
  'requestheader-allowed-names': string[];
  'requestheader-username-headers': string[];
  'requestheader-group-headers': string[];
  'requestheader-extra-headers-prefix': string[];
}) {
  if (!values['proxy-client-cert-file'] !== !values['proxy-client-key-file']) throw new FlagError('--proxy-client-cert-file and --proxy-client-key-file must be given together');
  return {
    ...(values['proxy-client-cert-file']
      ? { proxyClient: { certPem: readFlagFile('proxy-client-cert-file', values['proxy-client-cert-file']), keyPem: readFlagFile('proxy-client-key-file', values['proxy-client-key-file']) } }
      : {}),
    ...(values['requestheader-client-ca-file']
      ? {
          requestHeader: {
            clientCaPem: readFlagFile('requestheader-client-ca-file', values['requestheader-client-ca-file']),
            allowedNames: values['requestheader-allowed-names'],
            usernameHeaders: values['requestheader-username-headers'],
            groupHeaders: values['requestheader-group-headers'],
            extraHeadersPrefix: values['requestheader-extra-headers-prefix'],
          },
        }
      : {}),
  };
}

/** --pod-network-mode: pod-ip (upstream) or kubelet-tunnel (kubelab's runners: the apiserver is not on the pod network). */
function podNetworkFrom(mode: string): { podNetwork: 'pod-ip' | 'kubelet-tunnel' } {
  if (mode !== 'pod-ip' && mode !== 'kubelet-tunnel') throw new FlagError(`invalid argument "${mode}" for "--pod-network-mode" flag: must be pod-ip or kubelet-tunnel`);
  return { podNetwork: mode };
}

/** --component-status-url name=url, repeated: the components `kubectl get componentstatuses` probes (none given: upstream's defaults). */
function componentStatusUrlsFrom(values: string[]): { componentStatusUrls?: Record<string, string> } {
  if (values.length === 0) return {};
  const urls: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    const url = v.slice(eq + 1);
    if (eq <= 0 || !URL.canParse(url)) throw new FlagError(`invalid argument "${v}" for "--component-status-url" flag: want <name>=<healthz URL>`);
    urls[v.slice(0, eq)] = url;
  }
  return { componentStatusUrls: urls };
}

/** The TLS files as PEM; a missing file is a start-up error naming the flag. */
function servingTlsFrom(values: { 'tls-cert-file': string; 'tls-private-key-file': string; 'client-ca-file': string }): { tls?: ServingTls } {
  const read = (flag: keyof typeof values) => readFlagFile(flag, values[flag]);
  if (!values['tls-cert-file'] !== !values['tls-private-key-file']) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  if (!values['tls-cert-file']) {
    if (values['client-ca-file']) throw new FlagError('--client-ca-file needs --tls-cert-file and --tls-private-key-file');
    return {};
  }
  return { tls: { certPem: read('tls-cert-file'), keyPem: read('tls-private-key-file'), ...(values['client-ca-file'] ? { clientCaPem: read('client-ca-file') } : {}) } };
}

/** --kubelet-client-certificate/-key and --kubelet-certificate-authority as PEM. */
function kubeletClientFrom(values: { 'kubelet-client-certificate': string; 'kubelet-client-key': string; 'kubelet-certificate-authority': string }): { kubeletClient: KubeletClientConfig } {
  const read = (flag: keyof typeof values) => readFlagFile(flag, values[flag]);
  if (!values['kubelet-client-certificate'] !== !values['kubelet-client-key']) throw new FlagError('--kubelet-client-certificate and --kubelet-client-key must be given together');
  return {
    kubeletClient: {
      ...(values['kubelet-client-certificate'] ? { certPem: read('kubelet-client-certificate'), keyPem: read('kubelet-client-key') } : {}),
      ...(values['kubelet-certificate-authority'] ? { caPem: read('kubelet-certificate-authority') } : {}),
    },
  };
}

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
  let keys;
  try {
    keys = readServiceAccountKeys(values['service-account-signing-key-file'], values['service-account-key-file']);
  } catch (e) {
    process.stderr.write(`kube-apiserver: service account keys: ${(e as Error).message}\n`);
    process.exit(1);
  }
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
  let anonymous;
  try {
    anonymous = anonymousAuthFrom(values['anonymous-auth'], values['authentication-config'] || undefined);
  } catch (e) {
    if (e instanceof AuthenticationConfigError) {
      process.stderr.write(`kube-apiserver: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  let natsTls;
  try {
    natsTls = readNatsTls(
      { caFile: values['etcd-cafile'], certFile: values['etcd-certfile'], keyFile: values['etcd-keyfile'] },
      { caFile: 'etcd-cafile', certFile: 'etcd-certfile', keyFile: 'etcd-keyfile' },
    );
  } catch (e) {
    if (e instanceof FlagError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const server = await startApiserver({
    authorizationModes,
    natsUrl: values['nats-url'],
    ...(natsTls ? { natsTls } : {}),
    bucket: values['kv-bucket'],
    bindAddress: values['bind-address'],
    securePort: values['secure-port'],
    grpcPort: values['grpc-port'],
    ...(values['advertise-address'] ? { advertiseAddress: values['advertise-address'] } : {}),
    endpointReconcilerType: endpointReconcilerType(values['endpoint-reconciler-type']),
    serviceClusterIpRange: values['service-cluster-ip-range'],
    serviceNodePortRange: values['service-node-port-range'],
    defaultNotReadyTolerationSeconds: values['default-not-ready-toleration-seconds'],
    defaultUnreachableTolerationSeconds: values['default-unreachable-toleration-seconds'],
    watchCacheSize: values['watch-cache-size'],
    enablePriorityAndFairness: values['enable-priority-and-fairness'],
    maxRequestsInflight: values['max-requests-inflight'],
    maxMutatingRequestsInflight: values['max-mutating-requests-inflight'],
    disableAdmissionPlugins: values['disable-admission-plugins'].split(',').filter(Boolean),
    ...podNetworkFrom(values['pod-network-mode']),
    ...componentStatusUrlsFrom(values['component-status-url']),
    ...servingTlsFrom(values),
    ...kubeletClientFrom(values),
    ...aggregatorFrom(values),
    anonymousAuth: anonymous,
    ...(values['encryption-provider-config'] ? { encryptionProviderConfig: values['encryption-provider-config'] } : {}),
    serviceAccount: {
      ...keys,
      issuers: values['service-account-issuer'],
      apiAudiences: values['api-audiences'],
      maxTokenExpirationSeconds: Math.floor(values['service-account-max-token-expiration'] / 1000),
      extendTokenExpiration: values['service-account-extend-token-expiration'],
      enableBootstrapTokenAuth: values['enable-bootstrap-token-auth'],
      ...(values['service-account-jwks-uri'] ? { jwksUri: values['service-account-jwks-uri'] } : {}),
    },
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
