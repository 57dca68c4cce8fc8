// RBAC's policy read from the apiserver's watch cache: roles by key, and
// bindings through subject indexes the cache keeps current as it applies
// each change (WatchCache.observe). No I/O per request, no scan of bindings.

import { lookupResource, storageKey, storagePrefix, type ClusterRole, type ClusterRoleBinding, type ResourceInfo, type Role, type RoleBinding } from '@kubelab/api';
import type { UserInfo } from '../../authentication/user.js';
import type { CacheEntry, WatchCache } from '../../cache/watch-cache.js';
import type { PolicySource } from './resolver.js';
import { SubjectIndex } from './subject-index.js';

const GROUP = 'rbac.authorization.k8s.io';
const info = (resource: string): ResourceInfo => lookupResource(GROUP, 'v1', resource)!;

export class CachePolicySource implements PolicySource {
  private readonly roles = info('roles');
  private readonly clusterRoles = info('clusterroles');
  private readonly crbs = new SubjectIndex<ClusterRoleBinding>();
  private readonly rbs = new SubjectIndex<RoleBinding>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly cache: WatchCache) {
    this.follow(info('clusterrolebindings'), this.crbs);
    this.follow(info('rolebindings'), this.rbs);
  }

  /** Subscribe, then seed from what the cache holds, in one turn: no change falls between. */
  private follow<B extends RoleBinding | ClusterRoleBinding>(ri: ResourceInfo, index: SubjectIndex<B>): void {
    const prefix = storagePrefix(ri);
    const apply = (cur: CacheEntry | undefined, prev: CacheEntry | undefined) => {
      if (cur) index.set(cur.obj as B);
      else if (prev) index.delete(prev.namespace, prev.name);
    };
    this.unsubscribe.push(this.cache.observe(prefix, apply));
    for (const e of this.cache.list(prefix)) apply(e, undefined);
  }

  role(namespace: string, name: string): Role | undefined {
    return this.cache.get(storageKey(this.roles, namespace, name))?.obj as Role | undefined;
  }

  clusterRole(name: string): ClusterRole | undefined {
    return this.cache.get(storageKey(this.clusterRoles, undefined, name))?.obj as ClusterRole | undefined;
  }

  clusterRoleBindingsFor(user: UserInfo): readonly ClusterRoleBinding[] {
    return this.crbs.lookup(user, '');
  }

  roleBindingsFor(user: UserInfo, namespace: string): readonly RoleBinding[] {
    return this.rbs.lookup(user, namespace);
  }

  stop(): void {
    for (const u of this.unsubscribe.splice(0)) u();
  }
}
