// Service account tokens shared by kube-apiserver (TokenRequest, the token
// authenticators) and kube-controller-manager (legacy Secret tokens):
// upstream's pkg/serviceaccount.

export { boundClaims, legacyClaims, serviceAccountUsername, splitServiceAccountUsername, LEGACY_ISSUER } from './claims.js';
export type { BoundClaims, BoundClaimsInput, KubernetesClaim, LegacyClaims, ObjectRef } from './claims.js';
export { keyIdOf, parsePublicKeys, parseSigningKey, type SigningKey } from './keys.js';
export { signToken, unverifiedClaims, verifySignature, SIGNATURE_ERROR } from './jwt.js';
