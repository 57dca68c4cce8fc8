// RBAC's policy-based storage (upstream pkg/registry/rbac/{role,clusterrole,
// rolebinding,clusterrolebinding}/policybased): writes of roles and bindings
// checked against what the writer already holds, before admission.
//   Role/ClusterRole create and update: allowed for system:masters or with
//   `escalate` on the resource; otherwise every rule must be held (and an
//   aggregationRule needs full authority).
//   RoleBinding/ClusterRoleBinding create and update: allowed for
//   system:masters or with `bind` on the role; otherwise the role's rules
//   must be held in the binding's namespace.
// An update that only changes what the garbage collector writes passes.

import { deepEqual, forbidden, notFound, type ClusterRole, type KubeObject, type PolicyRule, type RoleBinding, type RoleRef } from '@kubelab/api';
import type { UserInfo } from '@kubelab/api';
import { bindAttributes, confirmNoEscalation, escalateAttributes, escalationAllowed, FULL_AUTHORITY, RBAC_GROUP, rulesFor } from '../../authorization/rbac/escalation.js';
import { roleRefRules, type PolicySource } from '../../authorization/rbac/resolver.js';
import type { Authorizer } from '../../authorization/types.js';
import type { RequestContext, WriteCheck } from '../interface.js';

const gr = (resource: string) => ({ group: RBAC_GROUP, resource });

/** Only ownerReferences, finalizers or managedFields changed (upstream IsOnlyMutatingGCFields; resourceVersion is the write's precondition). */
export function isOnlyMutatingGCFields(obj: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject) => {
    const { ownerReferences: _o, finalizers: _f, managedFields: _m, selfLink: _s, resourceVersion: _r, ...meta } = o.metadata as KubeObject['metadata'] & { selfLink?: string };
    return { ...o, metadata: meta };
  };
  return deepEqual(strip(obj), strip(old));
}

export interface PolicyBasedDeps {
  /** The authorizer chain, asked about `escalate` and `bind`. */
  authorizer: Authorizer;
  /** RBAC's policy, for the rules a user holds and a roleRef's rules. */
  source: PolicySource;
}

/** The writer, when one must be checked (the apiserver's own writes and system:masters pass; in-process writes without a user too). */
function checkedUser(ctx: RequestContext): UserInfo | undefined {
  return ctx.user && !escalationAllowed(ctx.user) ? ctx.user : undefined;
}

function roleCheck(resource: 'roles' | 'clusterroles', d: PolicyBasedDeps): WriteCheck {
  const check = (obj: KubeObject, old: KubeObject | undefined, namespace: string, ctx: RequestContext, requestName: string) => {
    const user = checkedUser(ctx);
    if (!user) return;
    if (d.authorizer.authorize(escalateAttributes(user, resource, namespace, requestName)).decision === 'Allow') return;
    if (old && isOnlyMutatingGCFields(obj, old)) return;
    const name = obj.metadata.name ?? '';
    const held = rulesFor(d.source, user, namespace);
    const why = confirmNoEscalation(user, held, ((obj as { rules?: PolicyRule[] }).rules ?? []) as PolicyRule[]);
    if (why) throw forbidden(gr(resource), name, why);
    // Aggregation gathers any rule, now or later: setting or changing it takes full authority.
    const aggregates = (o: KubeObject | undefined) => ((o as ClusterRole | undefined)?.aggregationRule?.clusterRoleSelectors ?? []).length > 0;
    if (resource === 'clusterroles' && (aggregates(obj) || aggregates(old)) && confirmNoEscalation(user, held, FULL_AUTHORITY)) {
      throw forbidden(gr(resource), name, 'must have cluster-admin privileges to use the aggregationRule');
    }
  };
  return {
    // A create names no object in its request (upstream asks `escalate` with the request's empty name).
    create: (obj, ns, ctx) => check(obj, undefined, ns, ctx, ''),
    update: (obj, old, ns, ctx) => check(obj, old, ns, ctx, obj.metadata.name ?? ''),
  };
}

function bindingCheck(resource: 'rolebindings' | 'clusterrolebindings', d: PolicyBasedDeps): WriteCheck {
  const check = (obj: KubeObject, old: KubeObject | undefined, namespace: string, ctx: RequestContext) => {
    const user = checkedUser(ctx);
    if (!user) return;
    if (old && isOnlyMutatingGCFields(obj, old)) return;
    const ref = ((obj as RoleBinding).roleRef ?? {}) as RoleRef;
    const bind = bindAttributes(user, ref, namespace);
    // A roleRef of no role kind (or a Role outside a namespace) is validation's to refuse.
    if (!bind || (ref.kind === 'Role' && !namespace)) return;
    if (d.authorizer.authorize(bind).decision === 'Allow') return;
    const resolved = roleRefRules(d.source, ref, namespace);
    // The role is read as the registry reads it: a missing one is its NotFound.
    if ('err' in resolved) throw notFound(gr(ref.kind === 'Role' ? 'roles' : 'clusterroles'), ref.name);
    const why = confirmNoEscalation(user, rulesFor(d.source, user, namespace), resolved.rules);
    if (why) throw forbidden(gr(resource), obj.metadata.name ?? '', why);
  };
  return { create: (obj, ns, ctx) => check(obj, undefined, ns, ctx), update: (obj, old, ns, ctx) => check(obj, old, ns, ctx) };
}

/** The checks by `group/resource`, for StoreDeps.writeChecks. */
export function rbacWriteChecks(d: PolicyBasedDeps): Map<string, WriteCheck> {
  return new Map([
    [`${RBAC_GROUP}/roles`, roleCheck('roles', d)],
    [`${RBAC_GROUP}/clusterroles`, roleCheck('clusterroles', d)],
    [`${RBAC_GROUP}/rolebindings`, bindingCheck('rolebindings', d)],
    [`${RBAC_GROUP}/clusterrolebindings`, bindingCheck('clusterrolebindings', d)],
  ]);
}
