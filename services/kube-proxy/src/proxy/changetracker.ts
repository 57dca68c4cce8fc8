// Change tracking (upstream ServiceChangeTracker / EndpointsChangeTracker):
// informer handlers only record what changed; a sync takes one snapshot of
// everything. An update that changes nothing a proxier renders (a new
// resourceVersion, a label) is reported as no change, so it queues no sync.

import type { EndpointSlice, Service } from '@kubelab/api';
import { LABEL_SERVICE_NAME } from '@kubelab/api';
import { mergeEndpoints, sliceEndpoints } from './endpoints.js';
import { servicePorts } from './serviceport.js';
import type { EndpointInfo, ProxySnapshot, ServicePortInfo } from './types.js';

function key(obj: { metadata: { namespace?: string; name?: string } }): string {
  return `${obj.metadata.namespace ?? 'default'}/${obj.metadata.name ?? ''}`;
}

function sameJSON(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Takes the set of Services (`namespace/name`) changed since the last take: what a partial sync rewrites. */
export interface ChangedServices {
  takeChanged(): Set<string>;
}

export class ServiceChangeTracker implements ChangedServices {
  private readonly ports = new Map<string, Map<string, ServicePortInfo>>();
  private changed = new Set<string>();

  takeChanged(): Set<string> {
    const c = this.changed;
    this.changed = new Set();
    return c;
  }

  /**
   * Records an add (old undefined), update, or delete (cur undefined);
   * true when the service ports a proxier renders changed.
   */
  update(old: Service | undefined, cur: Service | undefined): boolean {
    const obj = cur ?? old;
    if (!obj) return false;
    const k = key(obj);
    const before = this.ports.get(k);
    const after = cur ? servicePorts(cur) : undefined;
    if (after && after.size > 0) this.ports.set(k, after);
    else this.ports.delete(k);
    const a = before ? [...before.values()] : [];
    const b = after ? [...after.values()] : [];
    if (sameJSON(a, b)) {
      // Keep the objects a renderer has cached chain names for.
      if (before) this.ports.set(k, before);
      return false;
    }
    this.changed.add(k);
    return true;
  }

  servicePorts(): ServicePortInfo[] {
    const all: ServicePortInfo[] = [];
    for (const m of this.ports.values()) all.push(...m.values());
    return all.sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  }
}

export class EndpointsChangeTracker implements ChangedServices {
  /** slice key → endpoints per ServicePortName. */
  private readonly slices = new Map<string, Map<string, EndpointInfo[]>>();
  private changed = new Set<string>();

  takeChanged(): Set<string> {
    const c = this.changed;
    this.changed = new Set();
    return c;
  }

  constructor(private readonly nodeName: string) {}

  /** Records a slice add/update (removed=false) or delete; true when the endpoints changed. */
  endpointSliceUpdate(slice: EndpointSlice, removed: boolean): boolean {
    const k = key(slice);
    const before = this.slices.get(k);
    const after = removed ? undefined : sliceEndpoints(slice, this.nodeName);
    if (after && after.size > 0) this.slices.set(k, after);
    else this.slices.delete(k);
    const flat = (m?: Map<string, EndpointInfo[]>) => (m ? [...m.entries()] : []);
    if (sameJSON(flat(before), flat(after))) {
      if (before) this.slices.set(k, before);
      return false;
    }
    const svc = slice.metadata.labels?.[LABEL_SERVICE_NAME];
    if (svc) this.changed.add(`${slice.metadata.namespace ?? 'default'}/${svc}`);
    return true;
  }

  endpointsMap(): Map<string, EndpointInfo[]> {
    const grouped = new Map<string, EndpointInfo[][]>();
    for (const m of this.slices.values()) {
      for (const [spn, list] of m) {
        const g = grouped.get(spn);
        if (g) g.push(list);
        else grouped.set(spn, [list]);
      }
    }
    const out = new Map<string, EndpointInfo[]>();
    for (const [spn, lists] of grouped) out.set(spn, mergeEndpoints(lists));
    return out;
  }
}

/** The snapshot a sync renders, from the two trackers' current state. */
export function takeSnapshot(services: ServiceChangeTracker, endpoints: EndpointsChangeTracker): ProxySnapshot {
  return { services: services.servicePorts(), endpoints: endpoints.endpointsMap() };
}

/** A snapshot straight from objects (tests, benchmarks, `kubelab rules`). */
export function buildSnapshot(svcs: Service[], slices: EndpointSlice[], nodeName: string): ProxySnapshot {
  const s = new ServiceChangeTracker();
  const e = new EndpointsChangeTracker(nodeName);
  for (const svc of svcs) s.update(undefined, svc);
  for (const sl of slices) e.endpointSliceUpdate(sl, false);
  return takeSnapshot(s, e);
}
