// The custom resources served right now, for the controllers that walk every
// kind (upstream: the namespace controller asks discovery on each sync, the
// garbage collector resyncs its monitors from discovery). kubelab reads the
// CRDs themselves through one shared informer instead of polling discovery.

import { customResourcesOf, type CustomResourceDefinition, type ResourceInfo } from '@kubelab/api';
import type { GroupVersionResource, SharedInformerFactory } from '@kubelab/client';

export type CustomResourcesHandler = (added: ResourceInfo[], removed: ResourceInfo[]) => void;

const CRDS: GroupVersionResource = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const idOf = (r: ResourceInfo) => `${r.group}/${r.version}/${r.resource}/${r.namespaced}`;

export class CustomResources {
  private current = new Map<string, ResourceInfo>();
  private readonly handlers: CustomResourcesHandler[] = [];

  constructor(private readonly informers: SharedInformerFactory) {
    const inf = informers.forResource<CustomResourceDefinition>(CRDS);
    const refresh = () => this.set(customResourcesOf(inf.getIndexer().list()));
    inf.addEventHandler({ onAdd: refresh, onUpdate: refresh, onDelete: refresh });
  }

  /** The served custom resources, one version each. */
  list(): ResourceInfo[] {
    return [...this.current.values()];
  }

  /** The custom resource an ownerReference's apiVersion and kind name, when served. */
  lookupKind(apiVersion: string, kind: string): ResourceInfo | undefined {
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    for (const r of this.current.values()) if (r.kind === kind && r.group === group) return r;
    return undefined;
  }

  /**
   * Called with what changed, now and on every later change (a handler added
   * late first hears the current list). Informers a handler asks the factory
   * for are started after it returns and stopped when their resource goes.
   */
  onChange(h: CustomResourcesHandler): void {
    this.handlers.push(h);
    if (this.current.size) h(this.list(), []);
  }

  private set(next: ResourceInfo[]): void {
    const byId = new Map(next.map((r) => [idOf(r), r]));
    const added = next.filter((r) => !this.current.has(idOf(r)));
    const removed = [...this.current].filter(([id]) => !byId.has(id)).map(([, r]) => r);
    this.current = byId;
    if (!added.length && !removed.length) return;
    for (const h of this.handlers) h(added, removed);
    // Informers handlers asked for start now; those of a resource no longer served stop (else they retry a 404 forever).
    this.informers.start();
    for (const r of removed) void this.informers.forget({ group: r.group, version: r.version, resource: r.resource });
  }
}

const shared = new WeakMap<SharedInformerFactory, CustomResources>();

/** The one tracker per informer factory, shared by every controller that asks. */
export function customResourcesFor(informers: SharedInformerFactory): CustomResources {
  let c = shared.get(informers);
  if (!c) shared.set(informers, (c = new CustomResources(informers)));
  return c;
}
