// The Node authorizer (upstream: plugin/pkg/auth/authorizer/node/
// node_authorizer.go, with AuthorizeNodeWithSelectors as in 1.32): a kubelet
// (`system:node:<name>` in system:nodes) may read the secrets, configmaps,
// claims and volumes of pods bound to its node, create tokens for their
// service accounts, use its own Lease, CSINode and Node, read its pods and
// write their status; anything else is decided by upstream's static
// `system:node` rules. Everything here says NoOpinion rather than Deny, so
// RBAC still decides after it.

import { parseFieldSelector, GROUP_NODES, NODE_USER_PREFIX, type UserInfo } from '@kubelab/api';
import type { AuthorizationAttributes, Authorizer, AuthorizerResult, RuleResolver } from '../types.js';
import type { NodeGraph, VertexType } from './graph.js';

const NAMESPACE_NODE_LEASE = 'kube-node-lease';

const ALLOW: AuthorizerResult = Object.freeze({ decision: 'Allow', reason: '' });
const no = (reason = ''): AuthorizerResult => ({ decision: 'NoOpinion', reason });

/** The node a user speaks for (upstream nodeidentifier.NodeIdentity): isNode when in system:nodes with the prefix; the name may be empty. */
export function nodeIdentity(user: UserInfo): { isNode: boolean; nodeName: string } {
  if (!user.name.startsWith(NODE_USER_PREFIX) || !user.groups.includes(GROUP_NODES)) return { isNode: false, nodeName: '' };
  return { isNode: true, nodeName: user.name.slice(NODE_USER_PREFIX.length) };
}

export interface NodeAuthorizerOptions {
  graph: NodeGraph;
  /** Upstream's static `system:node` policy rules (bootstrappolicy.NodeRules) matched RBAC's way; absent: no static rules. */
  staticRulesAllow?: (a: AuthorizationAttributes) => boolean;
}

export class NodeAuthorizer implements Authorizer, RuleResolver {
  constructor(private readonly opts: NodeAuthorizerOptions) {}

  rulesFor(user: UserInfo): ReturnType<RuleResolver['rulesFor']> {
    if (nodeIdentity(user).isNode) {
      return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
    }
    return { resourceRules: [], nonResourceRules: [], incomplete: false };
  }

  authorize(a: AuthorizationAttributes): AuthorizerResult {
    const { isNode, nodeName } = nodeIdentity(a.user);
    if (!isNode) return no();
    if (!nodeName) return no(`unknown node for user ${JSON.stringify(a.user.name)}`);
    if (a.resourceRequest) {
      switch (`${a.resource}.${a.apiGroup}`) {
        case 'secrets.':
          return this.readNamespacedObject(nodeName, 'secret', a);
        case 'configmaps.':
          return this.readNamespacedObject(nodeName, 'configmap', a);
        case 'persistentvolumeclaims.':
          return a.subresource === 'status' ? this.statusUpdate(nodeName, 'persistentvolumeclaim', a) : this.get(nodeName, 'persistentvolumeclaim', a);
        case 'persistentvolumes.':
          // Through the claim bound to it: node ← pod ← pvc ← pv.
          return this.get(nodeName, 'persistentvolume', a);
        case 'resourceclaims.resource.k8s.io':
          return this.get(nodeName, 'resourceclaim', a);
        case 'volumeattachments.storage.k8s.io':
          return this.get(nodeName, undefined, a);
        case 'serviceaccounts.':
          return this.createToken(nodeName, a);
        case 'leases.coordination.k8s.io':
          return lease(nodeName, a);
        case 'csinodes.storage.k8s.io':
          return csiNode(nodeName, a);
        case 'nodes.':
          return node(nodeName, a);
        case 'pods.':
          return this.pod(nodeName, a);
      }
    }
    // Everything else is not subdivided per node: upstream's static node rules.
    return this.opts.staticRulesAllow?.(a) ? ALLOW : no();
  }

  private statusUpdate(nodeName: string, type: VertexType, a: AuthorizationAttributes): AuthorizerResult {
    if (a.verb !== 'update' && a.verb !== 'patch') return no('can only get/update/patch this type');
    if (a.subresource !== 'status') return no('can only update status subresource');
    return this.related(nodeName, type, a);
  }

  private get(nodeName: string, type: VertexType | undefined, a: AuthorizationAttributes): AuthorizerResult {
    if (a.verb !== 'get') return no('can only get individual resources of this type');
    if (a.subresource) return no('cannot get subresource');
    return this.related(nodeName, type, a);
  }

  private readNamespacedObject(nodeName: string, type: VertexType, a: AuthorizationAttributes): AuthorizerResult {
    if (a.verb !== 'get' && a.verb !== 'list' && a.verb !== 'watch') return no('can only read resources of this type');
    if (a.subresource) return no('cannot read subresource');
    if (!a.namespace) return no('can only read namespaced object of this type');
    return this.related(nodeName, type, a);
  }

  private related(nodeName: string, type: VertexType | undefined, a: AuthorizationAttributes): AuthorizerResult {
    if (!a.name) return no('No Object name found');
    if (!type || !this.opts.graph.hasPath(nodeName, type, a.namespace, a.name)) return no(`no relationship found between node '${nodeName}' and this object`);
    return ALLOW;
  }

  private createToken(nodeName: string, a: AuthorizationAttributes): AuthorizerResult {
    if (a.verb !== 'create' || !a.name) return no('can only create tokens for individual service accounts');
    if (a.subresource !== 'token') return no('can only create token subresource of serviceaccount');
    return this.related(nodeName, 'serviceaccount', a);
  }

  private pod(nodeName: string, a: AuthorizationAttributes): AuthorizerResult {
    switch (a.subresource) {
      case '':
        switch (a.verb) {
          case 'get':
            return this.get(nodeName, 'pod', a);
          case 'list':
          case 'watch':
            // Only the node's own pods, by a spec.nodeName=<node> field selector, or one pod known to be on it.
            if (fieldSelectorPins(a.fieldSelector, 'spec.nodeName', nodeName)) return ALLOW;
            if (a.name) return this.related(nodeName, 'pod', a);
            return no('can only list/watch pods with spec.nodeName field selector');
          case 'create':
          case 'delete':
            // Mirror pods; NodeRestriction admission limits them to pods bound to this node.
            return ALLOW;
        }
        break;
      case 'status':
        if (a.verb === 'update' || a.verb === 'patch') return ALLOW; // NodeRestriction: only pods bound to this node
        break;
      case 'eviction':
        if (a.verb === 'create') return ALLOW;
        break;
    }
    return no();
  }
}

function lease(nodeName: string, a: AuthorizationAttributes): AuthorizerResult {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a node lease');
  if (a.namespace !== NAMESPACE_NODE_LEASE) return no(`can only access leases in the ${JSON.stringify(NAMESPACE_NODE_LEASE)} system namespace`);
  // The name is not known on create; NodeRestriction admission checks it then.
  if (a.verb !== 'create' && a.name !== nodeName) return no('can only access node lease with the same name as the requesting node');
  return ALLOW;
}

function csiNode(nodeName: string, a: AuthorizationAttributes): AuthorizerResult {
  if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return no('can only get, create, update, patch, or delete a CSINode');
  if (a.subresource) return no('cannot authorize CSINode subresources');
  if (a.verb !== 'create' && a.name !== nodeName) return no('can only access CSINode with the same name as the requesting node');
  return ALLOW;
}

function node(nodeName: string, a: AuthorizationAttributes): AuthorizerResult {
  if (a.subresource === '') {
    // Writes of any Node pass here; NodeRestriction admission keeps a kubelet to its own.
    if (a.verb === 'create' || a.verb === 'update' || a.verb === 'patch') return ALLOW;
    if (a.verb === 'get' || a.verb === 'list' || a.verb === 'watch') {
      // By name, not the graph: a kubelet reads its Node before creating it.
      if (a.name === nodeName) return ALLOW;
      if (a.name === '') return no(`node '${nodeName}' cannot read all nodes, only its own Node object`);
      return no(`node '${nodeName}' cannot read '${a.name}', only its own Node object`);
    }
  } else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) return ALLOW;
  return no();
}

/** Whether a field selector has `<field>=<value>` (upstream: a selection.Equals requirement). */
function fieldSelectorPins(selector: string | undefined, field: string, value: string): boolean {
  if (!selector) return false;
  try {
    return parseFieldSelector(selector).requirements.some((r) => r.field === field && r.operator === '=' && r.value === value);
  } catch {
    return false;
  }
}
