// Bearer-token authentication (upstream k8s.io/apiserver/pkg/authentication:
// authenticator.Token, the union of token authenticators, and the
// TokenReview REST's use of them).

import { badRequest, internalError, toApiUserInfo, type TokenReviewSpec, type TokenReviewStatus, withAuthenticatedGroup, type UserInfo } from '@kubelab/api';

/** Who a token authenticates as, and for which of the requested audiences (upstream authenticator.Response). */
export interface TokenAuthResponse {
  user: UserInfo;
  audiences: string[];
}

/**
 * One kind of bearer token (upstream authenticator.Token). Resolves
 * undefined for a token that is not its kind; rejects with an Error carrying
 * upstream's text for a token of its kind that is not valid.
 * `audiences`: what the request asks for (a TokenReview's spec.audiences);
 * default: the apiserver's own (`--api-audiences`).
 */
export interface TokenAuthenticator {
  authenticateToken(token: string, audiences?: readonly string[]): Promise<TokenAuthResponse | undefined>;
}

/** Upstream bearertoken's text when no authenticator takes the token. */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

/** The outcome of trying every authenticator in turn (upstream unionAuthTokenHandler). */
export type TokenAuthResult = { ok: true; response: TokenAuthResponse } | { ok: false; error: string };

/** Several errors as upstream's utilerrors.Aggregate prints them: one alone, else `[a, b]`. */
function aggregate(errors: readonly string[]): string {
  const unique = [...new Set(errors)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/**
 * The first authenticator that takes the token wins; when none does, the
 * error is upstream's as the bearer-token layer reports it: `invalid bearer
 * token`, followed by what the authenticators said
 * (`[invalid bearer token, service account token has expired]`).
 */
export async function authenticateToken(authenticators: readonly TokenAuthenticator[], token: string, audiences?: readonly string[]): Promise<TokenAuthResult> {
  const errors: string[] = [];
  for (const a of authenticators) {
    try {
      const response = await a.authenticateToken(token, audiences);
      if (response) return { ok: true, response: { ...response, user: withAuthenticatedGroup(response.user) } };
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { ok: false, error: aggregate([INVALID_BEARER_TOKEN, ...errors]) };
}

/**
 * An authenticator that knows nothing of audiences, made to answer for the
 * apiserver's own (upstream authenticator.WrapAudienceAgnosticToken): it
 * authenticates only when the requested audiences (default: `implicit`)
 * include one of the apiserver's, and its response names those.
 */
export function audienceAgnostic(implicit: readonly string[], inner: TokenAuthenticator): TokenAuthenticator {
  return {
    async authenticateToken(token, requested) {
      const want = requested?.length ? requested : implicit;
      const audiences = implicit.filter((a) => want.includes(a));
      if (audiences.length === 0) return undefined;
      const response = await inner.authenticateToken(token);
      if (!response) return undefined;
      if (response.audiences.length > 0) throw new Error(`audience agnostic authenticator wrapped an authenticator that returned audiences: ${JSON.stringify(response.audiences)}`);
      return { ...response, audiences };
    },
  };
}

/**
 * A TokenReview's status (upstream pkg/registry/authentication/tokenreview):
 * the token's user when it authenticates, else `authenticated` false with
 * the authenticators' error. An empty token is a 400, as upstream; a user
 * for none of the audiences asked about (spec.audiences, else
 * `apiAudiences`) is upstream's 500 "error validating audiences".
 */
export async function reviewToken(spec: TokenReviewSpec, authenticators: readonly TokenAuthenticator[], apiAudiences: readonly string[] = []): Promise<TokenReviewStatus> {
  if (!spec.token) throw badRequest('token is required for TokenReview in authentication');
  const requested = spec.audiences?.length ? spec.audiences : undefined;
  const r = await authenticateToken(authenticators, spec.token, requested);
  // As upstream's JSON of a failed review: `authenticated` false is omitted, the empty user is not (a Go struct is never omitempty).
  if (!r.ok) return { user: {}, error: r.error };
  const { user, audiences: matched } = r.response;
  const want = requested ?? apiAudiences;
  if (want.length > 0 && !matched.some((a) => want.includes(a))) throw internalError(new Error('error validating audiences'));
  const status: TokenReviewStatus = { authenticated: true, user: toApiUserInfo(user) };
  if (matched.length) status.audiences = [...matched];
  return status;
}
