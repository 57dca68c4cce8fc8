// `--authorization-mode` (upstream: pkg/kubeapiserver/authorizer/modes and
// the authorizer config): the modes in order become one union authorizer,
// led by the system:masters superuser authorizer as upstream, and the union
// of the rule resolvers SelfSubjectRulesReview reads. Each mode is built by a
// factory from a map, so a mode's package plugs in its own (RBAC: the lead).

import type { WatchCache } from '../cache/watch-cache.js';
import type { Authorizer, RuleResolver } from './types.js';
import { alwaysAllow, alwaysDeny, superuserAuthorizer, unionAuthorizer, unionRuleResolver } from './union.js';

/** Upstream's mode names (authorizer/modes). */
export const AUTHORIZATION_MODES = ['AlwaysAllow', 'AlwaysDeny', 'ABAC', 'Webhook', 'RBAC', 'Node'] as const;
export const DEFAULT_AUTHORIZATION_MODES: readonly string[] = ['AlwaysAllow'];

/** What a mode's factory may use: the watch cache, which the Node graph and RBAC's indexes follow (observe). */
export interface AuthorizerDeps {
  cache: Pick<WatchCache, 'observe' | 'list' | 'get'>;
}

export type ModeAuthorizer = Authorizer & Partial<RuleResolver>;
export type AuthorizerFactory = (deps: AuthorizerDeps) => ModeAuthorizer;

export const BUILTIN_AUTHORIZER_FACTORIES: Readonly<Record<string, AuthorizerFactory>> = {
  AlwaysAllow: () => alwaysAllow,
  AlwaysDeny: () => alwaysDeny,
};

export class AuthorizationModeError extends Error {
  override name = 'AuthorizationModeError';
}

/** Upstream's option validation (kubeapiserver/options BuiltInAuthorizationOptions.Validate), plus a factory for each mode. */
export function validateAuthorizationModes(modes: readonly string[], factories: Readonly<Record<string, AuthorizerFactory>>): void {
  if (modes.length === 0) throw new AuthorizationModeError('at least one authorization-mode must be passed');
  for (const m of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) throw new AuthorizationModeError(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    if (!factories[m]) throw new AuthorizationModeError(`authorization-mode ${JSON.stringify(m)} is not supported by kubelab`);
  }
  if (new Set(modes).size !== modes.length) throw new AuthorizationModeError(`authorization-mode [${modes.map((m) => JSON.stringify(m)).join(' ')}] has mode specified more than once`);
}

/** One authorizer per mode, after validation. */
export function buildAuthorization(modes: readonly string[], factories: Readonly<Record<string, AuthorizerFactory>>, deps: AuthorizerDeps): { authorizer: Authorizer; ruleResolver: RuleResolver } {
  validateAuthorizationModes(modes, factories);
  const built = modes.map((m) => factories[m]!(deps));
  return {
    authorizer: unionAuthorizer([superuserAuthorizer, ...built]),
    ruleResolver: unionRuleResolver(built.filter((b): b is Authorizer & RuleResolver => typeof b.rulesFor === 'function')),
  };
}

/** Parses the flag's comma-separated list. */
export function parseAuthorizationModes(flag: string): string[] {
  return flag
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
