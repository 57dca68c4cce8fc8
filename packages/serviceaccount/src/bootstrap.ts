// Bootstrap token Secrets (upstream k8s.io/cluster-bootstrap token/api and
// util/secrets): `kube-system/bootstrap-token-<id>` of type
// `bootstrap.kubernetes.io/token`, read by the apiserver's bootstrap token
// authenticator and by the controller-manager's token cleaner, and the
// tokens themselves (token/util: GenerateBootstrapToken, ParseToken).

import { randomInt } from 'node:crypto';

export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
export const BOOTSTRAP_TOKEN_SECRET_PREFIX = 'bootstrap-token-';
export const BOOTSTRAP_USER_PREFIX = 'system:bootstrap:';
export const BOOTSTRAP_DEFAULT_GROUP = 'system:bootstrappers';
/** `<id>.<secret>`: `[a-z0-9]{6}.[a-z0-9]{16}` (upstream bootstrapapi.BootstrapTokenPattern). */
export const BOOTSTRAP_TOKEN_PATTERN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
/** The characters a token is drawn from (upstream validBootstrapTokenChars). */
const TOKEN_CHARS = '0123456789abcdefghijklmnopqrstuvwxyz';
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

/** The id (public, the Secret's name suffix) and secret of a token; undefined when it is not `[a-z0-9]{6}.[a-z0-9]{16}`. */
export function parseBootstrapToken(token: string): { id: string; secret: string } | undefined {
  const m = BOOTSTRAP_TOKEN_PATTERN.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : undefined;
}

/**
 * A new random token (GenerateBootstrapToken): every character drawn
 * uniformly from [a-z0-9] with the CSPRNG; `random(n)` answers 0..n-1.
 */
export function generateBootstrapToken(random: (n: number) => number = randomInt): string {
  const chars = (count: number) => Array.from({ length: count }, () => TOKEN_CHARS[random(TOKEN_CHARS.length)]).join('');
  return `${chars(6)}.${chars(16)}`;
}
