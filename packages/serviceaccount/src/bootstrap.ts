// Bootstrap token Secrets (upstream k8s.io/cluster-bootstrap token/api and
// util/secrets): `kube-system/bootstrap-token-<id>` of type
// `bootstrap.kubernetes.io/token`, read by the apiserver's bootstrap token
// authenticator and by the controller-manager's token cleaner.

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

/** The part of a Secret these helpers read (its data is base64, as in the API). */
export interface SecretData {
  data?: Record<string, string>;
}

/** A key of the Secret's data, decoded; '' when absent (upstream GetData). */
export function secretData(secret: SecretData, key: string): string {
  const v = secret.data?.[key];
  return v === undefined ? '' : Buffer.from(v, 'base64').toString('utf8');
}

/** When the token expires (ms), undefined when it never does, NaN when `expiration` is not RFC 3339. */
export function bootstrapTokenExpiration(secret: SecretData): number | undefined {
  const exp = secretData(secret, 'expiration');
  return exp ? Date.parse(exp) : undefined;
}

/** Whether the token's expiration has passed; an unparsable one counts as expired, as upstream (HasExpired). */
export function bootstrapTokenExpired(secret: SecretData, nowMs: number): boolean {
  const exp = bootstrapTokenExpiration(secret);
  return exp !== undefined && (Number.isNaN(exp) || nowMs > exp);
}

/** system:bootstrappers plus the `auth-extra-groups`, sorted; undefined when one is not under system:bootstrappers: (upstream GetGroups). */
export function bootstrapTokenGroups(secret: SecretData): string[] | undefined {
  const groups = new Set([BOOTSTRAP_DEFAULT_GROUP]);
  const extra = secretData(secret, 'auth-extra-groups');
  for (const g of extra ? extra.split(',') : []) {
    const group = g.trim();
    if (!EXTRA_GROUP.test(group)) return undefined;
    groups.add(group);
  }
  return [...groups].sort();
}
