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

/**
 * The Secret `kubeadm token create` writes for a token `<id>.<secret>`: usable
 * for authentication and signing, in kubeadm's default-node-token group.
 */
export function bootstrapTokenSecret(id: string, secret: string, opts: { groups?: readonly string[]; expiration?: string; description?: string } = {}) {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const data: Record<string, string> = {
    'token-id': b64(id),
    'token-secret': b64(secret),
    'usage-bootstrap-authentication': b64('true'),
    'usage-bootstrap-signing': b64('true'),
    'auth-extra-groups': b64((opts.groups ?? ['system:bootstrappers:kubeadm:default-node-token']).join(',')),
  };
  if (opts.expiration) data.expiration = b64(opts.expiration);
  if (opts.description) data.description = b64(opts.description);
  return { apiVersion: 'v1' as const, kind: 'Secret' as const, metadata: { name: `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`, namespace: 'kube-system' }, type: BOOTSTRAP_TOKEN_SECRET_TYPE, data };
}
