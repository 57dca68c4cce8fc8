// The claims of service account tokens (upstream pkg/serviceaccount/claims.go
// and legacy.go): bound tokens, issued by the TokenRequest API with an
// audience, an expiry and the objects they are bound to in the private
// `kubernetes.io` claim, and legacy tokens, which the token controller writes
// into Secrets and which never expire.

/** The issuer of legacy (Secret-based) tokens. */
export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

/** `system:serviceaccount:<namespace>:<name>` (upstream serviceaccount.MakeUsername). */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The namespace and name of a service account user name, or undefined (upstream SplitUsername). */
export function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  const prefix = 'system:serviceaccount:';
  if (!username.startsWith(prefix)) return undefined;
  const parts = username.slice(prefix.length).split(':');
  if (parts.length !== 2 || !parts[0] || !parts[1]) return undefined;
  return { namespace: parts[0], name: parts[1] };
}

/** An object a token names: its name and UID. */
export interface ObjectRef {
  name: string;
  uid: string;
}

/** The private `kubernetes.io` claim of a bound token. */
export interface KubernetesClaim {
  namespace: string;
  serviceaccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  /** For tokens whose lifetime was extended (kube-api-access): when a client should have refreshed (unix seconds). */
  warnafter?: number;
}

export interface BoundClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  jti: string;
  'kubernetes.io': KubernetesClaim;
}

export interface LegacyClaims {
  iss: typeof LEGACY_ISSUER;
  sub: string;
  'kubernetes.io/serviceaccount/namespace': string;
  'kubernetes.io/serviceaccount/secret.name': string;
  'kubernetes.io/serviceaccount/service-account.name': string;
  'kubernetes.io/serviceaccount/service-account.uid': string;
}

export interface BoundClaimsInput {
  issuer: string;
  audiences: readonly string[];
  namespace: string;
  serviceAccount: ObjectRef;
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: ObjectRef;
  /** Issue time, unix seconds. */
  now: number;
  /** Lifetime in seconds (exp = now + this). */
  expirationSeconds: number;
  /** Set for tokens issued with an extended lifetime: the lifetime asked for, after which clients should have refreshed. */
  warnAfterSeconds?: number;
  /** The token's unique id (a UUID). */
  jti: string;
}

/** The claims of a bound token (upstream serviceaccount.Claims). */
export function boundClaims(i: BoundClaimsInput): BoundClaims {
  const k: KubernetesClaim = { namespace: i.namespace, serviceaccount: { ...i.serviceAccount } };
  if (i.pod) k.pod = { ...i.pod };
  if (i.secret) k.secret = { ...i.secret };
  if (i.node) k.node = { ...i.node };
  if (i.warnAfterSeconds !== undefined) k.warnafter = i.now + i.warnAfterSeconds;
  return {
    iss: i.issuer,
    sub: serviceAccountUsername(i.namespace, i.serviceAccount.name),
    aud: [...i.audiences],
    exp: i.now + i.expirationSeconds,
    iat: i.now,
    nbf: i.now,
    jti: i.jti,
    'kubernetes.io': k,
  };
}

/** The claims of a legacy token for a service account and the Secret holding it (upstream serviceaccount.LegacyClaims). */
export function legacyClaims(namespace: string, serviceAccount: ObjectRef, secretName: string): LegacyClaims {
  return {
    iss: LEGACY_ISSUER,
    sub: serviceAccountUsername(namespace, serviceAccount.name),
    'kubernetes.io/serviceaccount/namespace': namespace,
    'kubernetes.io/serviceaccount/secret.name': secretName,
    'kubernetes.io/serviceaccount/service-account.name': serviceAccount.name,
    'kubernetes.io/serviceaccount/service-account.uid': serviceAccount.uid,
  };
}
