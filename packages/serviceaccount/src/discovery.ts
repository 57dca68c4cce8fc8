// Service account issuer discovery (upstream pkg/serviceaccount's
// openidmetadata.go): the OpenID Connect discovery document and the JSON Web
// Key Set at which anyone holding a ServiceAccount token (a cloud's workload
// identity, another cluster) can verify it. Rendered once, served as is.

import type { KeyObject } from 'node:crypto';
import { algOf, keyIdOf } from './keys.js';

export const OPENID_CONFIGURATION_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';

/** The two pre-rendered answers. */
export interface OpenIdMetadata {
  /** `/.well-known/openid-configuration` (application/json). */
  configuration: string;
  /** `/openid/v1/jwks` (application/jwk-set+json). */
  jwks: string;
}

/** One verification key as a JWK: `use`, `kty`, `kid`, `alg`, then the key material (go-jose's field order). */
function jwk(key: KeyObject): Record<string, string> {
  const { kty, ...material } = key.export({ format: 'jwk' }) as Record<string, string>;
  return { use: 'sig', kty: kty!, kid: keyIdOf(key), alg: algOf(key), ...material };
}

/**
 * The discovery answers for `issuer` (an https URL, or discovery is off:
 * upstream logs the error and leaves the endpoints out). The JWKS URI is
 * `jwksUri` (`--service-account-jwks-uri`) or the apiserver's own
 * `https://<externalAddress>/openid/v1/jwks`.
 */
export function openIdMetadata(issuer: string, jwksUri: string | undefined, externalAddress: string, publicKeys: readonly KeyObject[]): OpenIdMetadata {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`issuer ${JSON.stringify(issuer)} is not a valid URL`);
  }
  if (url.protocol !== 'https:') throw new Error('issuer URL must use https scheme, got: ' + issuer);
  if (url.search) throw new Error('issuer URL may not include a query, got: ' + issuer);
  if (publicKeys.length === 0) throw new Error('no public keys to publish');
  const configuration = {
    issuer,
    jwks_uri: jwksUri || `https://${externalAddress}${JWKS_PATH}`,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...new Set(publicKeys.map(algOf))].sort(),
  };
  return { configuration: JSON.stringify(configuration), jwks: JSON.stringify({ keys: publicKeys.map(jwk) }) };
}
