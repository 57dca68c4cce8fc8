// The rbac/bootstrap-roles post-start hook (upstream: pkg/registry/rbac/rest
// storage_rbac.go ensureRBACPolicy): every default ClusterRole, then
// ClusterRoleBinding, Role and RoleBinding is created when missing and
// reconciled when present, through the registry as the apiserver's own user.
// Idempotent: a restart with nothing changed writes nothing.

import { isAlreadyExists, isConflict, isNotFound, type KubeObject } from '@kubelab/api';
import type { RequestContext } from '../../../registry/interface.js';
import type { ApiRegistry } from '../../../registry/registry.js';
import { bootstrapPolicy } from './policy.js';
import { reconcileBinding, reconcileRole, type Reconciliation } from './reconcile.js';

const GROUP = 'rbac.authorization.k8s.io';

export interface EnsureResult {
  created: string[];
  updated: string[];
  recreated: string[];
  /** Objects annotated autoupdate "false" that differ from the default. */
  protected: string[];
}

type Reconcile<T> = (expected: T, existing: T | undefined) => Reconciliation<T>;

async function ensureOne<T extends KubeObject>(registry: ApiRegistry, resource: string, expected: T, reconcile: Reconcile<T>, ctx: RequestContext, result: EnsureResult): Promise<void> {
  const store = registry.mustStore(GROUP, resource);
  const ns = expected.metadata.namespace;
  const name = expected.metadata.name!;
  const label = `${resource}/${ns ? `${ns}/` : ''}${name}`;
  // A concurrent writer (another apiserver, the aggregation controller) may win a race: read again and retry.
  for (let attempt = 0; ; attempt++) {
    try {
      let existing: T | undefined;
      try {
        existing = (await store.get(ns, name)) as T;
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      const r = reconcile(expected, existing);
      switch (r.op) {
        case 'none':
          return;
        case 'protected':
          result.protected.push(label);
          return;
        case 'create':
          await store.create(ns, r.obj, ctx);
          result.created.push(label);
          return;
        case 'update':
          await store.update(ns, name, r.obj, ctx);
          result.updated.push(label);
          return;
        case 'recreate':
          await store.delete(ns, name, {}, ctx);
          await store.create(ns, r.obj, ctx);
          result.recreated.push(label);
          return;
      }
    } catch (e) {
      if (attempt < 5 && (isConflict(e) || isAlreadyExists(e) || isNotFound(e))) continue;
      throw e;
    }
  }
}

/** Creates and reconciles the default RBAC policy (upstream's and kubeadm's). */
export async function ensureRbacPolicy(registry: ApiRegistry, ctx: RequestContext): Promise<EnsureResult> {
  const policy = bootstrapPolicy();
  const result: EnsureResult = { created: [], updated: [], recreated: [], protected: [] };
  for (const o of policy.clusterRoles) await ensureOne(registry, 'clusterroles', o, reconcileRole, ctx, result);
  for (const o of policy.clusterRoleBindings) await ensureOne(registry, 'clusterrolebindings', o, reconcileBinding, ctx, result);
  for (const o of policy.roles) await ensureOne(registry, 'roles', o, reconcileRole, ctx, result);
  for (const o of policy.roleBindings) await ensureOne(registry, 'rolebindings', o, reconcileBinding, ctx, result);
  return result;
}
