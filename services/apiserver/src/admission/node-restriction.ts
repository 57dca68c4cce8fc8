// NodeRestriction (upstream: plugin/pkg/admission/noderestriction): what the
// Node authorizer lets any kubelet do, narrowed to its own things — only
// mirror pods bound to itself, status of and deletes of its own pods, its own
// Node (without taints or restricted labels), its own Lease and CSINode, and
// tokens only for pods on it. Requests of other users pass untouched.

import { ANNOTATION_CONFIG_MIRROR, forbidden, notFound, type KubeObject, type Node, type Pod, type Taint } from '@kubelab/api';
import { nodeIdentity } from '../authorization/node/node-authorizer.js';
import { referencesSecrets } from './service-account.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const NAMESPACE_NODE_LEASE = 'kube-node-lease';
const LABEL_NAMESPACE_NODE_RESTRICTION = 'node-restriction.kubernetes.io';

/** Labels a kubelet may set on its Node (upstream kubeletapis.IsKubeletLabel). */
const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'beta.kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

const labelNamespace = (key: string): string => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');
const inNamespace = (ns: string, base: string): boolean => ns === base || ns.endsWith(`.${base}`);

function isKubeletLabel(key: string): boolean {
  return KUBELET_LABELS.has(key) || KUBELET_LABEL_NAMESPACES.some((n) => inNamespace(labelNamespace(key), n));
}

/** Label keys a node may not add, remove or change: node-restriction ones, and kubernetes.io/k8s.io ones kubelets do not own. */
export function forbiddenLabels(labels: Record<string, string> | undefined, old: Record<string, string> | undefined): string[] {
  const a = labels ?? {};
  const b = old ?? {};
  const modified = new Set<string>();
  for (const k of Object.keys(a)) if (a[k] !== b[k]) modified.add(k);
  for (const k of Object.keys(b)) if (a[k] !== b[k]) modified.add(k);
  const out: string[] = [];
  for (const k of modified) {
    const ns = labelNamespace(k);
    const isKubernetes = inNamespace(ns, 'kubernetes.io') || inNamespace(ns, 'k8s.io');
    if (inNamespace(ns, LABEL_NAMESPACE_NODE_RESTRICTION) || (isKubernetes && !isKubeletLabel(k))) out.push(k);
  }
  return out.sort();
}

/** Whether two taint lists are equal field by field, whatever order a client wrote each taint's keys in (upstream: Semantic.DeepEqual). */
export function sameTaints(a: readonly Taint[] | undefined, b: readonly Taint[] | undefined): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((t, i) => t.key === y[i]!.key && (t.value ?? '') === (y[i]!.value ?? '') && t.effect === y[i]!.effect && (t.timeAdded ?? '') === (y[i]!.timeAdded ?? ''));
}

/** What a mirror pod refers to that it may not (upstream: secrets, configmaps, cluster trust bundles, claims, in that order). */
function forbiddenReference(pod: Pod): 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'clustertrustbundles' | undefined {
  const spec = pod.spec ?? { containers: [] };
  if (referencesSecrets(spec)) return 'secrets';
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  const vols = spec.volumes ?? [];
  const configmaps =
    containers.some((c) => (c.envFrom ?? []).some((e) => e.configMapRef) || (c.env ?? []).some((e) => e.valueFrom?.configMapKeyRef)) ||
    vols.some((v) => v.configMap || (v.projected?.sources ?? []).some((p) => p.configMap));
  if (configmaps) return 'configmaps';
  if (vols.some((v) => (v.projected?.sources ?? []).some((p) => p.clusterTrustBundle))) return 'clustertrustbundles';
  if (vols.some((v) => v.persistentVolumeClaim)) return 'persistentvolumeclaims';
  return undefined;
}

export interface NodeRestrictionDeps {
  /** The current Node (to check a mirror pod's owner UID), from the watch cache. */
  getNode(name: string): KubeObject | undefined;
  /** The current pod (for a TokenRequest's bound pod), from the watch cache. */
  getPod(namespace: string, name: string): KubeObject | undefined;
}

export function nodeRestriction(deps: NodeRestrictionDeps): AdmissionPlugin {
  return {
    name: 'NodeRestriction',
    // Upstream's NodeRestriction is a mutating-phase plugin (Admit) that only refuses: it runs before the object is validated.
    admit(a: AdmissionAttributes) {
      const user = a.ctx.user;
      if (!user) return;
      const { isNode, nodeName } = nodeIdentity(user);
      if (!isNode) return;
      const name = a.name || a.object?.metadata.name || '';
      const deny = (why: string) => forbidden(a.info, name, why);
      if (!nodeName) throw deny(`could not determine node from user ${JSON.stringify(user.name)}`);
      switch (`${a.info.resource}.${a.info.group}`) {
        case 'pods.':
          return admitPod(a, nodeName, deny, deps);
        case 'nodes.':
          return admitNode(a, nodeName, deny);
        case 'persistentvolumeclaims.':
          if (a.subresource !== 'status') throw deny('may only update PVC status');
          return;
        case 'serviceaccounts.':
          return admitServiceAccount(a, nodeName, deny, deps);
        case 'leases.coordination.k8s.io':
          if (a.namespace !== NAMESPACE_NODE_LEASE) throw deny(`can only access leases in the ${JSON.stringify(NAMESPACE_NODE_LEASE)} system namespace`);
          if (name !== nodeName) throw deny('can only access node lease with the same name as the requesting node');
          return;
        case 'csinodes.storage.k8s.io':
          if (name !== nodeName) throw deny('can only access CSINode with the same name as the requesting node');
          return;
      }
    },
  };
}

type Deny = (why: string) => Error;

function admitPod(a: AdmissionAttributes, nodeName: string, deny: Deny, deps: NodeRestrictionDeps): void {
  const sub = a.subresource ?? '';
  if (sub === 'status') {
    if (a.operation !== 'UPDATE') throw deny(`unexpected operation ${JSON.stringify(a.operation)}`);
    const old = a.oldObject as Pod | undefined;
    if (old?.spec?.nodeName !== nodeName) throw deny(`node ${JSON.stringify(nodeName)} can only update pod status for pods with spec.nodeName set to itself`);
    if (!sameLabels(old.metadata.labels, a.object?.metadata.labels)) throw deny(`node ${JSON.stringify(nodeName)} cannot update labels through pod status`);
    return;
  }
  if (sub === 'eviction') return admitPodEviction(a, nodeName, deny, deps);
  if (sub !== '') throw deny(`unexpected pod subresource ${JSON.stringify(sub)}, only 'status' and 'eviction' are allowed`);
  if (a.operation === 'DELETE') {
    if ((a.oldObject as Pod | undefined)?.spec?.nodeName !== nodeName) throw deny(`node ${JSON.stringify(nodeName)} can only delete pods with spec.nodeName set to itself`);
    return;
  }
  if (a.operation !== 'CREATE') throw deny(`unexpected operation ${JSON.stringify(a.operation)}, node ${JSON.stringify(nodeName)} can only create and delete mirror pods`);
  const pod = a.object as Pod;
  const n = JSON.stringify(nodeName);
  if (pod.metadata.annotations?.[ANNOTATION_CONFIG_MIRROR] === undefined) throw deny(`pod does not have ${JSON.stringify(ANNOTATION_CONFIG_MIRROR)} annotation, node ${n} can only create mirror pods`);
  if (pod.spec?.nodeName !== nodeName) throw deny(`node ${n} can only create pods with spec.nodeName set to itself`);
  const owners = pod.metadata.ownerReferences ?? [];
  if (owners.length > 1) throw deny(`node ${n} can only create pods with a single owner reference set to itself`);
  const owner = owners[0];
  if (!owner || owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== nodeName) throw deny(`node ${n} can only create pods with an owner reference set to itself`);
  if (!owner.controller) throw deny(`node ${n} can only create pods with a controller owner reference set to itself`);
  if (owner.blockOwnerDeletion) throw deny(`node ${n} must not set blockOwnerDeletion on an owner reference`);
  const node = deps.getNode(nodeName);
  if (!node) throw notFound({ group: '', resource: 'nodes' }, nodeName);
  if (owner.uid !== node.metadata.uid) throw deny(`node ${nodeName} UID mismatch: expected ${owner.uid} got ${node.metadata.uid ?? ''}`);
  if (pod.spec?.serviceAccountName) throw deny(`node ${n} can not create pods that reference a service account`);
  const ref = forbiddenReference(pod);
  if (ref) throw deny(`node ${n} can not create pods that reference ${ref}`);
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const x = a ?? {};
  const y = b ?? {};
  const kx = Object.keys(x);
  return kx.length === Object.keys(y).length && kx.every((k) => y[k] === x[k]);
}

function admitNode(a: AdmissionAttributes, nodeName: string, deny: Deny): void {
  const requested = a.name || a.object?.metadata.name || '';
  if (requested !== nodeName) throw deny(`node ${JSON.stringify(nodeName)} is not allowed to modify node ${JSON.stringify(requested)}`);
  const node = a.object as Node | undefined;
  if (a.operation === 'CREATE' && node) {
    if ((node.spec as { configSource?: unknown } | undefined)?.configSource) throw deny(`node ${JSON.stringify(nodeName)} is not allowed to create pods with a non-nil configSource`);
    const bad = forbiddenLabels(node.metadata.labels, undefined);
    if (bad.length) throw deny(`node ${JSON.stringify(nodeName)} is not allowed to set the following labels: ${bad.join(', ')}`);
  }
  if (a.operation === 'UPDATE' && node) {
    const old = a.oldObject as Node | undefined;
    const cs = (node.spec as { configSource?: unknown } | undefined)?.configSource;
    if (cs && JSON.stringify(cs) !== JSON.stringify((old?.spec as { configSource?: unknown } | undefined)?.configSource)) {
      throw deny(`node ${JSON.stringify(nodeName)} is not allowed to update configSource to a new non-nil configSource`);
    }
    if (!sameTaints(node.spec?.taints, old?.spec?.taints)) throw deny(`node ${JSON.stringify(nodeName)} is not allowed to modify taints`);
    const bad = forbiddenLabels(node.metadata.labels, old?.metadata.labels);
    if (bad.length) throw deny(`is not allowed to modify labels: ${bad.join(', ')}`);
  }
}

/** A node may evict only the pods bound to it (upstream admitPodEviction; the node's name unquoted, as upstream prints it). */
function admitPodEviction(a: AdmissionAttributes, nodeName: string, deny: Deny, deps: NodeRestrictionDeps): void {
  if (a.operation !== 'CREATE') throw deny(`unexpected operation ${a.operation}`);
  const podName = a.name || a.object?.metadata.name || '';
  if (!podName) throw deny('could not determine pod from request data');
  const pod = deps.getPod(a.namespace, podName) as Pod | undefined;
  if (!pod) throw notFound({ group: '', resource: 'pods' }, podName);
  if (pod.spec?.nodeName !== nodeName) throw deny(`node ${nodeName} can only evict pods with spec.nodeName set to itself`);
}

function admitServiceAccount(a: AdmissionAttributes, nodeName: string, deny: Deny, deps: NodeRestrictionDeps): void {
  if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
  const ref = (a.object as { spec?: { boundObjectRef?: { apiVersion?: string; kind?: string; name?: string; uid?: string } } } | undefined)?.spec?.boundObjectRef;
  if (!ref || ref.apiVersion !== 'v1' || ref.kind !== 'Pod' || !ref.name) throw deny('node requested token not bound to a pod');
  if (!ref.uid) throw deny('node requested token with a pod binding without a uid');
  const pod = deps.getPod(a.namespace, ref.name) as Pod | undefined;
  if (!pod) throw notFound({ group: '', resource: 'pods' }, ref.name);
  if (ref.uid !== pod.metadata.uid) {
    throw deny(`the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  if (pod.spec?.nodeName !== nodeName) throw deny('node requested token bound to a pod scheduled on a different node');
}
