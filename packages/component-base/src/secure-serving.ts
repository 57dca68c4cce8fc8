// kube-scheduler's and kube-controller-manager's --secure-port (upstream:
// SecureServingOptions, DelegatingAuthenticationOptions and
// DelegatingAuthorizationOptions, and their flags): HTTPS with the given or a
// self-signed certificate, client certificates of the client CA, bearer
// tokens by TokenReview, anonymous otherwise; then the always-allowed paths
// (the health checks), system:masters, or a SubjectAccessReview.
//
// What differs from upstream: without --client-ca-file upstream reads the
// client CA from the kube-system/extension-apiserver-authentication
// ConfigMap (through --authentication-kubeconfig); kubelab takes the CA of
// that kubeconfig (kubeadm's one cluster CA signs both the apiserver's
// serving certificate and the client certificates). Without
// --authentication-kubeconfig or --authorization-kubeconfig the reviews go
// through --kubeconfig's connection, as the component's own calls do.

import { FlagError, readFlagFile, type FlagSet } from './flags.js';
import { alwaysAllowPathsAuthorizer, delegatingAuth, DEFAULT_ALWAYS_ALLOW_PATHS, DELEGATED_CACHE_TTL_MS } from './auth/delegating.js';
import type { ReviewClient } from './auth/types.js';
import type { SecureServing } from './health.js';
import { servingCertificate, type ServingCertificate } from './serving-cert.js';
import type { KubeObject, SubjectAccessReview, TokenReview } from '@kubelab/api';

const TOKEN_REVIEWS = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews' };
const SUBJECT_ACCESS_REVIEWS = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews' };

/** What the reviews need of a clientset (@kubelab/client's generic resource client). */
export interface ReviewClientset {
  resource<T extends KubeObject>(gvr: { group: string; version: string; resource: string }): ReviewClient<T>;
}

/** The TokenReview and SubjectAccessReview clients over a component's API connections (upstream: the authentication and authorization kubeconfigs' clients). */
export function reviewClients(authentication: ReviewClientset, authorization: ReviewClientset = authentication) {
  return { tokenReviews: authentication.resource<TokenReview>(TOKEN_REVIEWS), subjectAccessReviews: authorization.resource<SubjectAccessReview>(SUBJECT_ACCESS_REVIEWS) };
}

/** The secure port's settings, from the flags below (every field has upstream's default). */
export interface SecurePortConfig {
  /** --tls-cert-file and --tls-private-key-file. */
  servingTls?: ServingCertificate;
  /** --cert-dir: where the self-signed pair is written and found again ('' : made at each start, in memory). */
  certDir?: string;
  /** --client-ca-file. */
  clientCaPem?: string;
  /** --authorization-always-allow-paths. */
  alwaysAllowPaths?: readonly string[];
  /** --authentication-token-webhook-cache-ttl. */
  tokenCacheTtlMs?: number;
  /** --authorization-webhook-cache-authorized-ttl and -unauthorized-ttl. */
  authorizedTtlMs?: number;
  unauthorizedTtlMs?: number;
}

export interface SecurePortContext {
  /** The certificate's file names (upstream PairName): kube-scheduler, kube-controller-manager. */
  pairName: string;
  /** --bind-address: a specific address is one of the self-signed certificate's SANs, beside localhost and 127.0.0.1. */
  bindAddress: string;
  /** The CA of the authentication kubeconfig, the client CA without --client-ca-file. */
  kubeconfigCaPem?: string;
  tokenReviews?: ReviewClient<TokenReview>;
  subjectAccessReviews?: ReviewClient<SubjectAccessReview>;
  onRefused?: SecureServing['onRefused'];
}

/** serveHealth's `secure` for the settings: the serving certificate made or read, the delegated auth built. */
export async function secureServing(cfg: SecurePortConfig, ctx: SecurePortContext): Promise<SecureServing> {
  const specific = ctx.bindAddress && ctx.bindAddress !== '0.0.0.0' && ctx.bindAddress !== '::' && ctx.bindAddress !== '127.0.0.1';
  // upstream MaybeDefaultWithSelfSignedCerts("localhost", nil, [127.0.0.1]).
  const certificate = await servingCertificate({
    ...(cfg.servingTls ? { given: cfg.servingTls } : {}),
    certDir: cfg.certDir ?? '',
    pairName: ctx.pairName,
    host: 'localhost',
    ipAddresses: specific ? ['127.0.0.1', ctx.bindAddress] : ['127.0.0.1'],
  });
  const clientCaPem = cfg.clientCaPem || ctx.kubeconfigCaPem;
  return {
    certificate,
    ...(clientCaPem ? { clientCaPem } : {}),
    auth: delegatingAuth({
      ...(clientCaPem ? { clientCaPem } : {}),
      ...(ctx.tokenReviews ? { tokenReviews: ctx.tokenReviews } : {}),
      ...(ctx.subjectAccessReviews ? { subjectAccessReviews: ctx.subjectAccessReviews } : {}),
      ...(cfg.alwaysAllowPaths ? { alwaysAllowPaths: cfg.alwaysAllowPaths } : {}),
      ...(cfg.tokenCacheTtlMs !== undefined ? { tokenCacheTtlMs: cfg.tokenCacheTtlMs } : {}),
      ...(cfg.authorizedTtlMs !== undefined ? { authorizedTtlMs: cfg.authorizedTtlMs } : {}),
      ...(cfg.unauthorizedTtlMs !== undefined ? { unauthorizedTtlMs: cfg.unauthorizedTtlMs } : {}),
    }),
    ...(ctx.onRefused ? { onRefused: ctx.onRefused } : {}),
  };
}

/** Adds the secure serving, delegated authentication and authorization flags (upstream names and defaults). */
export function withSecureServingFlags<T extends Record<string, unknown>>(flags: FlagSet<T>) {
  return flags
    .string(
      'cert-dir',
      '',
      'The directory where the TLS certs are located. If --tls-cert-file and --tls-private-key-file are provided, this flag will be ignored. Empty: a self-signed pair made at each start is kept in memory',
    )
    .string('tls-cert-file', '', 'File containing the default x509 Certificate for HTTPS. If not provided, a self-signed certificate for localhost and 127.0.0.1 is generated')
    .string('tls-private-key-file', '', 'File containing the default x509 private key matching --tls-cert-file')
    .string(
      'client-ca-file',
      '',
      'If set, any request presenting a client certificate signed by one of the authorities in the client-ca-file is authenticated with an identity corresponding to the CommonName of the client certificate. kubelab: without it, the CA of --authentication-kubeconfig',
    )
    .string(
      'authentication-kubeconfig',
      '',
      'kubeconfig file pointing at the core kubernetes server with enough rights to create tokenreviews.authentication.k8s.io. kubelab: empty uses the --kubeconfig connection',
    )
    .string(
      'authorization-kubeconfig',
      '',
      'kubeconfig file pointing at the core kubernetes server with enough rights to create subjectaccessreviews.authorization.k8s.io. kubelab: empty uses the --kubeconfig connection',
    )
    .stringArray(
      'authorization-always-allow-paths',
      [...DEFAULT_ALWAYS_ALLOW_PATHS],
      'A list of HTTP paths to skip during authorization, i.e. these are authorized without contacting the core kubernetes server',
    )
    .duration('authentication-token-webhook-cache-ttl', DELEGATED_CACHE_TTL_MS, 'The duration to cache responses from the webhook token authenticator')
    .duration('authorization-webhook-cache-authorized-ttl', DELEGATED_CACHE_TTL_MS, "The duration to cache 'authorized' responses from the webhook authorizer")
    .duration('authorization-webhook-cache-unauthorized-ttl', DELEGATED_CACHE_TTL_MS, "The duration to cache 'unauthorized' responses from the webhook authorizer");
}

export interface SecureServingFlagValues {
  'cert-dir': string;
  'tls-cert-file': string;
  'tls-private-key-file': string;
  'client-ca-file': string;
  'authentication-kubeconfig': string;
  'authorization-kubeconfig': string;
  'authorization-always-allow-paths': string[];
  'authentication-token-webhook-cache-ttl': number;
  'authorization-webhook-cache-authorized-ttl': number;
  'authorization-webhook-cache-unauthorized-ttl': number;
}

/** The settings the flags give; unreadable files and bad paths are FlagErrors. */
export function securePortConfigFrom(values: SecureServingFlagValues): SecurePortConfig {
  if (!values['tls-cert-file'] !== !values['tls-private-key-file']) throw new FlagError('--tls-cert-file and --tls-private-key-file must be given together');
  const paths = values['authorization-always-allow-paths'].filter((p) => p !== '');
  try {
    alwaysAllowPathsAuthorizer(paths);
  } catch (e) {
    throw new FlagError(`--authorization-always-allow-paths: ${(e as Error).message}`);
  }
  return {
    ...(values['tls-cert-file']
      ? { servingTls: { certPem: readFlagFile('tls-cert-file', values['tls-cert-file']), keyPem: readFlagFile('tls-private-key-file', values['tls-private-key-file']) } }
      : {}),
    certDir: values['cert-dir'],
    ...(values['client-ca-file'] ? { clientCaPem: readFlagFile('client-ca-file', values['client-ca-file']) } : {}),
    alwaysAllowPaths: paths,
    tokenCacheTtlMs: values['authentication-token-webhook-cache-ttl'],
    authorizedTtlMs: values['authorization-webhook-cache-authorized-ttl'],
    unauthorizedTtlMs: values['authorization-webhook-cache-unauthorized-ttl'],
  };
}
