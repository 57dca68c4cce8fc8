// events.k8s.io/v1 events, served from core/v1 events' storage (upstream:
// the event REST storage installed for both group versions, objects
// converted by the scheme on the way in and out). Every verb converts here;
// core's store keeps admission, validation, CAS and the watch cache.

import {
  apiVersionOf,
  applyPatch,
  convertFieldSelector,
  eventFromCore,
  eventToCore,
  invalid,
  isConflict,
  lookupResource,
  parseFieldSelector,
  StatusError,
  validateEventsEventCreate,
  type DeleteOptions,
  type Event,
  type EventsEvent,
  type KubeList,
  type KubeObject,
  type ResourceInfo,
  type WatchEvent,
} from '@kubelab/api';
import type { DeleteResult, ListOptions, PatchType, RequestContext, ResourceStore, Watch, WatchOptions } from './interface.js';

const GROUP = 'events.k8s.io';
/** Retries of a patch without a resourceVersion that lost a race (core's store retries its own patches the same way). */
const PATCH_RETRIES = 5;

const toEvents = (o: KubeObject): KubeObject => eventFromCore(o as Event) as KubeObject;
const toCore = (o: KubeObject): KubeObject => eventToCore(structuredClone(o) as EventsEvent) as KubeObject;

/**
 * A field selector in events.k8s.io's labels as core's (`regarding.name` →
 * `involvedObject.name`); a label events.k8s.io does not accept is a 400 in
 * upstream's words. Text that does not parse goes on unchanged: core's store
 * answers its parse error.
 */
export function coreFieldSelector(selector: string | undefined): string | undefined {
  if (!selector?.trim()) return selector;
  let parsed;
  try {
    parsed = parseFieldSelector(selector);
  } catch {
    return selector;
  }
  try {
    return convertFieldSelector(`${GROUP}/v1`, 'Event', parsed).toString();
  } catch (e) {
    throw new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: (e as Error).message, reason: 'BadRequest', code: 400 });
  }
}

/** An error core's store gave, naming this group's resource as upstream's would (`events.events.k8s.io "x" not found`). */
export function inGroup(e: unknown): unknown {
  if (!StatusError.isInstance(e)) return e;
  const s = structuredClone(e.status);
  if (s.details && !s.details.group && (s.details.kind === 'events' || s.details.kind === 'Event')) {
    s.details.group = GROUP;
    s.message = s.message?.replace(/^(events|Event) "/, `$1.${GROUP} "`);
  }
  return new StatusError(s);
}

async function regrouped<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw inGroup(e);
  }
}

function convertEvent(ev: WatchEvent): WatchEvent {
  if (ev.type === 'ERROR') return ev;
  if (ev.type === 'BOOKMARK') return { type: ev.type, object: { ...ev.object, apiVersion: `${GROUP}/v1`, kind: 'Event' } };
  return { type: ev.type, object: toEvents(ev.object) };
}

export class EventsStore implements ResourceStore {
  readonly info: ResourceInfo;

  constructor(private readonly core: ResourceStore) {
    const info = lookupResource(GROUP, 'v1', 'events');
    if (!info) throw new Error('events.events.k8s.io/v1 is not in RESOURCES');
    this.info = info;
  }

  get(namespace: string | undefined, name: string, opts?: { resourceVersion?: string }): Promise<KubeObject> {
    return regrouped(async () => toEvents(await this.core.get(namespace, name, opts)));
  }

  list(opts: ListOptions): Promise<KubeList> {
    return regrouped(async () => {
      const list = await this.core.list(withCoreSelector(opts));
      return { ...list, apiVersion: apiVersionOf(this.info), kind: this.info.listKind, items: list.items.map(toEvents) };
    });
  }

  watch(opts: WatchOptions): Watch {
    let w: Watch;
    try {
      w = this.core.watch(withCoreSelector(opts));
    } catch (e) {
      throw inGroup(e);
    }
    const events = (async function* () {
      for await (const ev of w.events) yield convertEvent(ev);
    })();
    const out: Watch = { events, stop: () => w.stop() };
    if (w.nextBatch) {
      const next = w.nextBatch.bind(w);
      out.nextBatch = async () => (await next()).map(convertEvent);
    }
    if (w.done) out.done = w.done;
    return out;
  }

  create(namespace: string | undefined, obj: KubeObject, ctx: RequestContext, operation?: 'Apply'): Promise<KubeObject> {
    return regrouped(async () => {
      const e = obj as EventsEvent;
      // The rules a create through events.k8s.io adds to core/v1's (upstream: ValidateEventCreate by request version).
      const errs = validateEventsEventCreate({ ...e, metadata: { ...e.metadata, namespace: namespace ?? e.metadata.namespace ?? '' } });
      if (errs.length) throw invalid('Event', GROUP, e.metadata.name ?? '', errs);
      return toEvents(await this.core.create(namespace, toCore(obj), ctx, operation));
    });
  }

  update(namespace: string | undefined, name: string, obj: KubeObject, ctx: RequestContext): Promise<KubeObject> {
    return regrouped(async () => toEvents(await this.core.update(namespace, name, toCore(obj), ctx)));
  }

  /** Read as events.k8s.io, patch that shape, write back as core with the read's resourceVersion; a lost race is retried unless the patch named a resourceVersion. */
  patch(namespace: string | undefined, name: string, patchType: PatchType, patch: unknown, ctx: RequestContext): Promise<KubeObject> {
    return regrouped(async () => {
      for (let attempt = 0; ; attempt++) {
        const cur = toEvents(await this.core.get(namespace, name));
        const patched = applyPatch(patchType, structuredClone(cur), patch, this.info.schemaType) as KubeObject;
        const pinned = patched.metadata?.resourceVersion;
        if (!pinned) patched.metadata = { ...patched.metadata, resourceVersion: cur.metadata.resourceVersion! };
        try {
          return toEvents(await this.core.update(namespace, name, toCore(patched), ctx));
        } catch (e) {
          if (pinned || !isConflict(e) || attempt >= PATCH_RETRIES) throw e;
        }
      }
    });
  }

  delete(namespace: string | undefined, name: string, options: DeleteOptions, ctx: RequestContext): Promise<DeleteResult> {
    return regrouped(async () => {
      const r = await this.core.delete(namespace, name, options, ctx);
      return { ...r, object: toEvents(r.object) };
    });
  }
}

function withCoreSelector<T extends { fieldSelector?: string }>(opts: T): T {
  const fieldSelector = coreFieldSelector(opts.fieldSelector);
  return fieldSelector === opts.fieldSelector ? opts : { ...opts, fieldSelector: fieldSelector! };
}
