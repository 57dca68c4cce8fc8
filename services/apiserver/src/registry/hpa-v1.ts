// autoscaling/v1 HorizontalPodAutoscalers, served from autoscaling/v2's
// storage (upstream: one REST storage installed for both versions, objects
// converted by the scheme on the way in and out). Every verb converts here;
// v2's store keeps defaulting, validation, admission, CAS and the watch cache.

import {
  apiVersionOf,
  applyPatch,
  hpaFromV1,
  hpaToV1,
  isConflict,
  lookupResource,
  type DeleteOptions,
  type HorizontalPodAutoscaler,
  type HorizontalPodAutoscalerV1,
  type KubeList,
  type KubeObject,
  type ResourceInfo,
  type WatchEvent,
} from '@kubelab/api';
import type { DeleteResult, ListOptions, PatchType, RequestContext, ResourceStore, Subresource, Watch, WatchOptions } from './interface.js';

/** Retries of a patch without a resourceVersion that lost a race (as the events.k8s.io store). */
const PATCH_RETRIES = 5;

const toV1 = (o: KubeObject): KubeObject => hpaToV1(o as HorizontalPodAutoscaler) as KubeObject;
const toV2 = (o: KubeObject): KubeObject => hpaFromV1(structuredClone(o) as HorizontalPodAutoscalerV1) as KubeObject;

function convertEvent(ev: WatchEvent): WatchEvent {
  if (ev.type === 'ERROR') return ev;
  if (ev.type === 'BOOKMARK') return { type: ev.type, object: { ...ev.object, apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' } };
  return { type: ev.type, object: toV1(ev.object) };
}

export class HorizontalPodAutoscalerV1Store implements ResourceStore {
  readonly info: ResourceInfo;

  constructor(private readonly v2: ResourceStore) {
    const info = lookupResource('autoscaling', 'v1', 'horizontalpodautoscalers');
    if (!info) throw new Error('horizontalpodautoscalers.autoscaling/v1 is not in RESOURCES');
    this.info = info;
  }

  async get(namespace: string | undefined, name: string, opts?: { resourceVersion?: string }): Promise<KubeObject> {
    return toV1(await this.v2.get(namespace, name, opts));
  }

  async list(opts: ListOptions): Promise<KubeList> {
    const list = await this.v2.list(opts);
    return { ...list, apiVersion: apiVersionOf(this.info), kind: this.info.listKind, items: list.items.map(toV1) };
  }

  watch(opts: WatchOptions): Watch {
    const w = this.v2.watch(opts);
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

  async create(namespace: string | undefined, obj: KubeObject, ctx: RequestContext, operation?: 'Apply'): Promise<KubeObject> {
    return toV1(await this.v2.create(namespace, toV2(obj), ctx, operation));
  }

  async update(namespace: string | undefined, name: string, obj: KubeObject, ctx: RequestContext, subresource?: Subresource): Promise<KubeObject> {
    return toV1(await this.v2.update(namespace, name, toV2(obj), ctx, subresource));
  }

  /** Read as v1, patch that shape, write back as v2 with the read's resourceVersion; a lost race is retried unless the patch named a resourceVersion. */
  async patch(namespace: string | undefined, name: string, patchType: PatchType, patch: unknown, ctx: RequestContext, subresource?: Subresource): Promise<KubeObject> {
    for (let attempt = 0; ; attempt++) {
      const cur = toV1(await this.v2.get(namespace, name));
      const patched = applyPatch(patchType, structuredClone(cur), patch, this.info.schemaType) as KubeObject;
      const pinned = patched.metadata?.resourceVersion;
      if (!pinned) patched.metadata = { ...patched.metadata, resourceVersion: cur.metadata.resourceVersion! };
      try {
        return toV1(await this.v2.update(namespace, name, toV2(patched), ctx, subresource));
      } catch (e) {
        if (pinned || !isConflict(e) || attempt >= PATCH_RETRIES) throw e;
      }
    }
  }

  async delete(namespace: string | undefined, name: string, options: DeleteOptions, ctx: RequestContext): Promise<DeleteResult> {
    const r = await this.v2.delete(namespace, name, options, ctx);
    return { ...r, object: toV1(r.object) };
  }
}
