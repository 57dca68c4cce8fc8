// The set of resource stores plus pods/binding (upstream: the apiserver's
// RESTStorage map and BindingREST).

import { badRequest, conflict, invalid, isStored, lookupResource, RESOURCES, type FieldError, type KubeObject, type ResourceInfo } from '@kubelab/api';
import type { CustomStrategy, Registry, RequestContext, ResourceStore } from './interface.js';
import { GenericStore, type StoreDeps } from './store.js';
import { nowTime } from './meta.js';
import type { AdmissionChain } from '../admission/chain.js';

interface Binding {
  metadata?: { name?: string; namespace?: string; uid?: string; annotations?: Record<string, string> };
  target?: { kind?: string; name?: string; apiVersion?: string };
}

interface PodCondition {
  type: string;
  status: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

const BINDING = { group: '', resource: 'pods/binding' };

export class ApiRegistry implements Registry {
  readonly stores = new Map<string, GenericStore>();
  readonly admission: AdmissionChain;
  /** Resources answered without storage (the reviews), served once handed in. */
  private readonly unstored = new Map<string, ResourceStore>();
  /** Resources added at run time (the versions of established CRDs), by group/version/resource. */
  private readonly custom = new Map<string, GenericStore>();

  constructor(private readonly deps: StoreDeps) {
    this.admission = deps.admission;
    for (const info of RESOURCES) if (isStored(info)) this.stores.set(`${info.group}/${info.version}/${info.resource}`, new GenericStore(info, deps));
  }

  /** Serves a resource that is not stored (upstream: a create-only REST storage such as SubjectAccessReview's). */
  serve(store: ResourceStore): void {
    const { group, version, resource } = store.info;
    const key = `${group}/${version}/${resource}`;
    if (this.stores.has(key) || this.unstored.has(key)) throw new Error(`resource ${key} served twice`);
    this.unstored.set(key, store);
  }

  store(group: string, version: string, resource: string): ResourceStore | undefined {
    const key = `${group}/${version}/${resource}`;
    return this.stores.get(key) ?? this.unstored.get(key) ?? this.custom.get(key);
  }

  /**
   * Serves a resource added at run time, replacing what served it before
   * (upstream: the CRD handler's serving info, rebuilt when the CRD changes).
   * A built-in resource cannot be shadowed.
   */
  serveCustom(info: ResourceInfo, strategy: CustomStrategy): GenericStore {
    const key = `${info.group}/${info.version}/${info.resource}`;
    if (this.stores.has(key) || this.unstored.has(key)) throw new Error(`resource ${key} is built in`);
    const store = new GenericStore(info, this.deps, strategy);
    this.custom.set(key, store);
    return store;
  }

  /** Stops serving a run-time resource (its CRD changed or went). */
  stopServingCustom(group: string, version: string, resource: string): void {
    this.custom.delete(`${group}/${version}/${resource}`);
  }

  /** The resources served at run time, for discovery and OpenAPI. */
  runtimeResources(): ResourceInfo[] {
    return [...this.custom.values()].map((s) => s.info);
  }

  /** The typed store for a known resource (throws for a name kubelab does not serve). */
  mustStore(group: string, resource: string): GenericStore {
    const info = lookupResource(group, 'v1', resource);
    const s = info && this.stores.get(`${group}/v1/${resource}`);
    if (!s) throw new Error(`no store for ${resource}.${group}`);
    return s;
  }

  currentRevision(): number {
    return this.deps.cache.rev;
  }

  async bind(namespace: string, body: KubeObject, ctx: RequestContext): Promise<void> {
    const b = body as unknown as Binding;
    if (typeof b !== 'object' || b === null || Array.isArray(b)) throw badRequest('the body of the request must be a v1 Binding object');
    const name = b.metadata?.name ?? '';
    const errs: FieldError[] = [];
    if (!name) errs.push({ type: 'FieldValueRequired', field: 'metadata.name', detail: 'name or generateName is required' });
    if (!b.target?.name) errs.push({ type: 'FieldValueRequired', field: 'target.name' });
    if (b.target?.kind && b.target.kind !== 'Node') errs.push({ type: 'FieldValueNotSupported', field: 'target.kind', badValue: b.target.kind, detail: 'supported values: "Node"' });
    if (b.metadata?.namespace && b.metadata.namespace !== namespace) {
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    if (errs.length > 0) throw invalid('Binding', '', name, errs);
    const node = b.target!.name!;
    const pods = this.mustStore('', 'pods');
    await pods.patchWith(namespace, name, ctx, 'binding', (pod) => {
      const p = pod as KubeObject & { spec?: { nodeName?: string }; status?: { conditions?: PodCondition[] } };
      if (b.metadata?.uid && b.metadata.uid !== p.metadata.uid) {
        throw conflict(BINDING, name, `Precondition failed: UID in precondition: ${b.metadata.uid}, UID in object meta: ${p.metadata.uid ?? ''}`);
      }
      if (p.metadata.deletionTimestamp) throw conflict(BINDING, name, `pod ${name} is being deleted, cannot be assigned to a host`);
      if (p.spec?.nodeName) throw conflict(BINDING, name, `pod ${name} is already assigned to node "${p.spec.nodeName}"`);
      p.spec = { ...(p.spec ?? {}), nodeName: node };
      if (b.metadata?.annotations) p.metadata.annotations = { ...(p.metadata.annotations ?? {}), ...b.metadata.annotations };
      const conds = (p.status?.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
      conds.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: nowTime() });
      p.status = { ...(p.status ?? {}), conditions: conds };
      return p as unknown as Parameters<Parameters<typeof pods.patchWith>[4]>[0];
    });
  }
}
