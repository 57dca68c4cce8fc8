// The Node authorizer's graph (upstream: plugin/pkg/auth/authorizer/node
// graph.go + graph_populator.go), reduced to what its questions need: for
// each object a pod refers to — secret, configmap, persistentvolumeclaim,
// serviceaccount, resourceclaim — and each pod itself, the nodes whose bound
// pods lead to it. Kept in step with the watch cache one pod change at a
// time, so a request is one map lookup, never a scan of the pods.

import { podConfigMapNames, podSecretNames, type PersistentVolume, type Pod } from '@kubelab/api';

export type VertexType = 'pod' | 'secret' | 'configmap' | 'persistentvolumeclaim' | 'persistentvolume' | 'serviceaccount' | 'resourceclaim';

const vertex = (type: VertexType, namespace: string, name: string): string => `${type}/${namespace}/${name}`;

/** The objects a pod refers to, as vertex keys (upstream: AddPod's secret, configmap, pvc, serviceaccount and resourceclaim edges). */
export function podReferences(pod: Pod): Set<string> {
  const ns = pod.metadata.namespace ?? '';
  const out = new Set<string>();
  const add = (type: VertexType, name: string | undefined) => {
    if (name) out.add(vertex(type, ns, name));
  };
  const spec = pod.spec ?? { containers: [] };
  add('serviceaccount', spec.serviceAccountName);
  for (const name of podSecretNames(pod)) add('secret', name);
  for (const name of podConfigMapNames(pod)) add('configmap', name);
  for (const v of spec.volumes ?? []) {
    add('persistentvolumeclaim', v.persistentVolumeClaim?.claimName);
    // A generic ephemeral volume's claim is named <pod>-<volume> (upstream ephemeral.VolumeClaimName).
    if (v.ephemeral) add('persistentvolumeclaim', `${pod.metadata.name ?? ''}-${v.name}`);
  }
  const claims = (pod.status as { resourceClaimStatuses?: { resourceClaimName?: string }[] } | undefined)?.resourceClaimStatuses;
  for (const c of Array.isArray(claims) ? claims : []) add('resourceclaim', c.resourceClaimName);
  return out;
}

interface PodEntry {
  node: string;
  refs: Set<string>;
}

export class NodeGraph {
  /** Bound pods by namespace/name: their node and what they refer to. */
  private readonly pods = new Map<string, PodEntry>();
  /** Vertex → node → how many of that node's pods lead to it. */
  private readonly nodesOf = new Map<string, Map<string, number>>();

  /** A pod was added, changed (cur and prev) or deleted (cur undefined); unbound pods have no edges. */
  onPod(cur: Pod | undefined, prev: Pod | undefined): void {
    const obj = cur ?? prev;
    if (!obj) return;
    const key = `${obj.metadata.namespace ?? ''}/${obj.metadata.name}`;
    const old = this.pods.get(key);
    const node = cur?.spec?.nodeName;
    if (!cur || !node) {
      if (old) this.remove(key, old);
      return;
    }
    const refs = podReferences(cur);
    refs.add(vertex('pod', cur.metadata.namespace ?? '', cur.metadata.name ?? ''));
    if (old && old.node === node && sameSet(old.refs, refs)) return;
    if (old) this.remove(key, old);
    const entry = { node, refs };
    this.pods.set(key, entry);
    for (const r of refs) {
      let m = this.nodesOf.get(r);
      if (!m) this.nodesOf.set(r, (m = new Map()));
      m.set(node, (m.get(node) ?? 0) + 1);
    }
  }

  private remove(key: string, e: PodEntry): void {
    this.pods.delete(key);
    for (const r of e.refs) {
      const m = this.nodesOf.get(r);
      if (!m) continue;
      const n = (m.get(e.node) ?? 0) - 1;
      if (n > 0) m.set(e.node, n);
      else m.delete(e.node);
      if (m.size === 0) this.nodesOf.delete(r);
    }
  }

  /** PersistentVolume name → the claim vertex its claimRef names (upstream AddPV's pv → pvc edge). */
  private readonly claimOfVolume = new Map<string, string>();

  /** A volume was added, changed or deleted (cur undefined). */
  onPersistentVolume(cur: PersistentVolume | undefined, prev: PersistentVolume | undefined): void {
    const name = (cur ?? prev)?.metadata.name;
    if (!name) return;
    const ref = cur?.spec?.claimRef;
    if (ref?.name) this.claimOfVolume.set(name, vertex('persistentvolumeclaim', ref.namespace ?? '', ref.name));
    else this.claimOfVolume.delete(name);
  }

  /** Whether a pod bound to `node` leads to the object (upstream hasPathFrom). */
  hasPath(node: string, type: VertexType, namespace: string, name: string): boolean {
    if (type === 'persistentvolume') {
      const claim = this.claimOfVolume.get(name);
      return claim !== undefined && (this.nodesOf.get(claim)?.get(node) ?? 0) > 0;
    }
    return (this.nodesOf.get(vertex(type, namespace, name))?.get(node) ?? 0) > 0;
  }

  /** Vertices held (for tests and metrics). */
  get size(): number {
    return this.nodesOf.size;
  }
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}
