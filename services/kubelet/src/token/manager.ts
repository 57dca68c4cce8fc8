// The kubelet's service account token manager (upstream
// pkg/kubelet/token/token_manager.go): the projected serviceAccountToken
// source asks it for a token bound to the pod; it keeps the token the
// apiserver issued and asks for a new one once 80 % of its lifetime has
// passed or it is over 24 hours old (with up to 10 s of jitter, so the
// pods of a node do not all refresh at once). A failed refresh keeps
// serving the old token while it is still valid.

import type { TokenRequest } from '@kubelab/api';
import type { Clock } from '@kubelab/client';

/** Asks the apiserver for a token (serviceaccounts/<name>/token). */
export type TokenFetcher = (namespace: string, name: string, request: TokenRequest) => Promise<TokenRequest>;

/** What the volume manager and its plugins see of the manager. */
export interface ServiceAccountTokenSource {
  getServiceAccountToken(namespace: string, name: string, request: TokenRequest): Promise<TokenRequest>;
  /** Forgets the tokens bound to a pod that is gone. */
  deleteServiceAccountToken?(podUID: string): void;
}

/** How often expired tokens are dropped (upstream gcPeriod: the manager's cleanup runs once a minute). */
export const TOKEN_GC_PERIOD_MS = 60_000;

const MAX_TTL_MS = 24 * 3600_000;
const MAX_JITTER_MS = 10_000;

/** Whether a cached token must be replaced at `now` (upstream requiresRefresh). */
export function requiresRefresh(tr: TokenRequest, now: number, jitterMs: number): boolean {
  const seconds = tr.spec.expirationSeconds;
  if (seconds === undefined || !tr.status) return true;
  const exp = Date.parse(tr.status.expirationTimestamp);
  const iat = exp - seconds * 1000;
  if (now > iat + MAX_TTL_MS - jitterMs) return true;
  // Refresh within the last 20 % of the lifetime.
  return now > exp - seconds * 200 - jitterMs;
}

/** Whether the token is past its expiry (upstream expired()). */
function expired(tr: TokenRequest, now: number): boolean {
  return !tr.status || now > Date.parse(tr.status.expirationTimestamp);
}

/** One cache entry per service account, audiences, lifetime and bound object (upstream keyFunc). */
function keyOf(namespace: string, name: string, tr: TokenRequest): string {
  const ref = tr.spec.boundObjectRef;
  return JSON.stringify([namespace, name, tr.spec.audiences ?? [], tr.spec.expirationSeconds ?? null, ref ? [ref.apiVersion, ref.kind, ref.name, ref.uid] : null]);
}

export class TokenManager implements ServiceAccountTokenSource {
  /** By keyOf; with the pod the request bound the token to. */
  private readonly cache = new Map<string, { tr: TokenRequest; podUID: string | undefined }>();

  constructor(
    private readonly fetch: TokenFetcher,
    private readonly clock: Pick<Clock, 'now'>,
    private readonly random: () => number = Math.random,
  ) {}

  async getServiceAccountToken(namespace: string, name: string, request: TokenRequest): Promise<TokenRequest> {
    const key = keyOf(namespace, name, request);
    const cached = this.cache.get(key)?.tr;
    const now = this.clock.now();
    if (cached && !requiresRefresh(cached, now, this.random() * MAX_JITTER_MS)) return cached;
    let fresh: TokenRequest;
    try {
      fresh = await this.fetch(namespace, name, request);
    } catch (err) {
      if (cached && !expired(cached, now)) return cached;
      throw new Error(`failed to fetch token: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    this.cache.set(key, { tr: fresh, podUID: request.spec.boundObjectRef?.uid });
    return fresh;
  }

  /** Forgets the tokens bound to a pod that is gone (upstream DeleteServiceAccountToken). */
  deleteServiceAccountToken(podUID: string): void {
    for (const [k, e] of this.cache) if (e.podUID === podUID) this.cache.delete(k);
  }

  /** Drops expired tokens (upstream's periodic cleanup). */
  cleanup(): void {
    const now = this.clock.now();
    for (const [k, e] of this.cache) if (expired(e.tr, now)) this.cache.delete(k);
  }

  get size(): number {
    return this.cache.size;
  }
}
