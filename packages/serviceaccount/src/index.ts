// Service account tokens shared by kube-apiserver (TokenRequest, the token
// authenticators) and kube-controller-manager (legacy Secret tokens):
// upstream's pkg/serviceaccount.

export { boundClaims, legacyClaims, serviceAccountUsername, splitServiceAccountUsername, LEGACY_ISSUER } from './claims.js';
export type { BoundClaims, BoundClaimsInput, KubernetesClaim, LegacyClaims, ObjectRef } from './claims.js';
export { keyIdOf, parsePublicKeys, parseSigningKey, type SigningKey } from './keys.js';
export { openIdMetadata, JWKS_PATH, OPENID_CONFIGURATION_PATH, type OpenIdMetadata } from './discovery.js';
export { signToken, unverifiedClaims, verifySignature, SIGNATURE_ERROR } from './jwt.js';
export {
  bootstrapTokenExpiration,
  bootstrapTokenExpired,
  bootstrapTokenGroups,
  bootstrapTokenSecret,
  generateBootstrapToken,
  parseBootstrapToken,
  secretData,
  BOOTSTRAP_TOKEN_PATTERN,
  BOOTSTRAP_DEFAULT_GROUP,
  BOOTSTRAP_TOKEN_SECRET_PREFIX,
  BOOTSTRAP_TOKEN_SECRET_TYPE,
  BOOTSTRAP_USER_PREFIX,
  type SecretData,
} from './bootstrap.js';
export { computeDetachedSignature, detachedTokenIsValid, JWS_SIGNATURE_KEY_PREFIX } from './jws.js';
