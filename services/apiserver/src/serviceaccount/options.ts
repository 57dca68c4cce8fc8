// What `--service-account-*`, `--api-audiences` and
// `--enable-bootstrap-token-auth` turn on: the token authenticators the
// authentication chain runs and the TokenRequest API. Upstream refuses to
// start without `--service-account-signing-key-file`; kubelab starts without
// one (its tests do) and then serves no TokenRequest (404, as upstream's
// apiserver without an issuer) and mounts no kube-api-access volume, so pods
// still start. Legacy Secret tokens still verify with the public keys.

import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { parsePublicKeys, parseSigningKey, type SigningKey } from '@kubelab/serviceaccount';
import { createBootstrapTokenAuthenticator } from '../authentication/bootstrap-token.js';
import { createTokenAuthenticators } from '../authentication/serviceaccount/authenticator.js';
import type { ServiceAccountTokenGetter } from '../authentication/serviceaccount/getter.js';
import { audienceAgnostic, type TokenAuthenticator } from '../authentication/token.js';
import type { ApiRegistry } from '../registry/registry.js';
import { TokenRequestREST } from './token-request.js';

/** kubeadm's `--service-account-issuer`. */
export const DEFAULT_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

export interface ServiceAccountTokenOptions {
  /** `--service-account-issuer` (default kubeadm's); the first issues, all are accepted. */
  issuers?: string[];
  /** `--service-account-signing-key-file`, parsed; absent: no TokenRequest. */
  signingKey?: SigningKey;
  /** `--service-account-key-file`, parsed; default: the signing key's public half. */
  publicKeys?: KeyObject[];
  /** `--api-audiences`; default: the issuers. */
  apiAudiences?: string[];
  /** `--service-account-max-token-expiration` in seconds (0: none). */
  maxTokenExpirationSeconds?: number;
  /** `--service-account-extend-token-expiration` (default true). */
  extendTokenExpiration?: boolean;
  /** `--enable-bootstrap-token-auth` (upstream default false; kubeadm sets true). */
  enableBootstrapTokenAuth?: boolean;
  /** `--service-account-jwks-uri`: the jwks_uri of the discovery document (default: this apiserver's /openid/v1/jwks). */
  jwksUri?: string;
  /** Wall clock in milliseconds (tests). */
  now?: () => number;
}

/** Reads the key files the flags name (several `--service-account-key-file`s may be given). */
export function readServiceAccountKeys(signingKeyFile: string, keyFiles: readonly string[]): Pick<ServiceAccountTokenOptions, 'signingKey' | 'publicKeys'> {
  const out: Pick<ServiceAccountTokenOptions, 'signingKey' | 'publicKeys'> = {};
  if (signingKeyFile) out.signingKey = parseSigningKey(readFileSync(signingKeyFile, 'utf8'));
  if (keyFiles.length) out.publicKeys = keyFiles.flatMap((f) => parsePublicKeys(readFileSync(f, 'utf8')));
  return out;
}

export interface ServiceAccountTokens {
  /** In upstream's union order: bootstrap tokens (when enabled), bound service account tokens, legacy Secret tokens. */
  authenticators: TokenAuthenticator[];
  /** serviceaccounts/<name>/token, when a signing key is configured. */
  tokenRequest?: TokenRequestREST;
  /** The audiences tokens are checked against by default (`--api-audiences` or the issuers). */
  apiAudiences: string[];
  /** The issuer tokens are signed as, and the keys that verify them: what issuer discovery publishes. */
  issuer: string;
  publicKeys: KeyObject[];
}

export function serviceAccountTokens(o: ServiceAccountTokenOptions, getter: ServiceAccountTokenGetter, registry: ApiRegistry): ServiceAccountTokens {
  const issuers = o.issuers?.length ? o.issuers : [DEFAULT_SERVICE_ACCOUNT_ISSUER];
  const apiAudiences = o.apiAudiences?.length ? o.apiAudiences : issuers;
  const publicKeys = o.publicKeys?.length ? o.publicKeys : o.signingKey ? [o.signingKey.publicKey] : [];
  const now = o.now ?? Date.now;
  const authenticators: TokenAuthenticator[] = [];
  if (o.enableBootstrapTokenAuth) authenticators.push(audienceAgnostic(apiAudiences, createBootstrapTokenAuthenticator({ getter, now })));
  if (publicKeys.length) authenticators.push(...createTokenAuthenticators({ getter, issuers, audiences: apiAudiences, publicKeys, now }));
  const out: ServiceAccountTokens = { authenticators, apiAudiences, issuer: issuers[0]!, publicKeys };
  if (o.signingKey) {
    out.tokenRequest = new TokenRequestREST(registry, {
      issuer: issuers[0]!,
      apiAudiences,
      signingKey: o.signingKey,
      maxExpirationSeconds: o.maxTokenExpirationSeconds ?? 0,
      extendExpiration: o.extendTokenExpiration ?? true,
      now,
    });
  }
  return out;
}
