// The RBAC authorizer as the apiserver wires it into `--authorization-mode=Node,RBAC`.

import type { WatchCache } from '../../cache/watch-cache.js';
import { RbacAuthorizer } from './authorizer.js';
import { CachePolicySource } from './cache-source.js';

export { RbacAuthorizer } from './authorizer.js';
export { ruleAllows, rulesAllow } from './rules.js';
export type { PolicySource } from './resolver.js';

/** An RBAC authorizer (Authorizer and RuleResolver) over the watch cache; stop() drops its cache subscriptions. */
export function createRbacAuthorizer(cache: WatchCache): RbacAuthorizer & { stop(): void } {
  const source = new CachePolicySource(cache);
  return Object.assign(new RbacAuthorizer(source), { stop: () => source.stop() });
}
