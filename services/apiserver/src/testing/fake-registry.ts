// An in-memory Registry for the REST handler's tests: the contract of
// registry/interface.ts (CAS on resourceVersion, graceful pod deletion,
// initial ADDED events for rv ""/"0", binding) without storage or admission.

import { randomUUID } from 'node:crypto';
import {
  alreadyExists,
  applyPatch,
  conflict,
  invalid,
  lookupKind,
  lookupResource,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  type DeleteOptions,
  type FieldError,
  type KubeList,
  type KubeObject,
  type ResourceInfo,
  type WatchEvent,
} from '@kubelab/api';
import type { DeleteResult, ListOptions, Registry, RequestContext, ResourceStore, Subresource, Watch, WatchOptions } from '../registry/interface.js';
import { checkPatchedTypes } from '../decoding/decode.js';
import { AdmissionChain } from '../admission/chain.js';

type Obj = Record<string, any>;

function get(o: Obj, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Obj)[k] : undefined), o);
}

/** `a=b,c!=d,e,!f,g in (x,y)` — enough of the label selector grammar for tests. */
export function matchLabels(selector: string | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return true;
  const terms = selector.match(/[^,()]+(\([^)]*\))?/g) ?? [];
  return terms.every((raw) => {
    const t = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(t))) {
      const vals = m[3]!.split(',').map((s) => s.trim());
      const has = m[1]! in labels && vals.includes(labels[m[1]!]!);
      return m[2] === 'in' ? has : !has;
    }
    if ((m = /^([^!=]+)!=(.*)$/.exec(t))) return labels[m[1]!] !== m[2];
    if ((m = /^([^!=]+)==?(.*)$/.exec(t))) return labels[m[1]!] === m[2];
    if (t.startsWith('!')) return !(t.slice(1) in labels);
    return t in labels;
  });
}

export function matchFields(selector: string | undefined, o: Obj): boolean {
  if (!selector) return true;
  return selector.split(',').every((t) => {
    const neq = t.indexOf('!=');
    if (neq > 0) return String(get(o, t.slice(0, neq)) ?? '') !== t.slice(neq + 2);
    const eq = t.indexOf('=');
    return String(get(o, t.slice(0, eq).replace(/=$/, '')) ?? '') === t.slice(eq + 1).replace(/^=/, '');
  });
}

interface Subscriber {
  opts: WatchOptions;
  push(ev: WatchEvent): void;
}

export class FakeRegistry implements Registry {
  readonly objects = new Map<string, KubeObject>();
  readonly subscribers = new Set<Subscriber & { info: ResourceInfo }>();
  readonly bindings: KubeObject[] = [];
  /** No admission plugins: writes are only validated. */
  readonly admission = new AdmissionChain([], []);
  rev = 1;
  /** Validation to run on create/update (default: a container image is required). */
  validate: (obj: KubeObject) => FieldError[] = (o) => {
    if (o.kind !== 'Pod') return [];
    return ((o as Obj).spec?.containers ?? []).flatMap((c: Obj, i: number) => (c.image ? [] : [{ type: 'FieldValueRequired', field: `spec.containers[${i}].image`, detail: '' } as FieldError]));
  };
  private clock: () => Date;

  constructor(opts: { now?: () => Date } = {}) {
    this.clock = opts.now ?? (() => new Date());
  }

  currentRevision(): number {
    return this.rev;
  }

  store(group: string, version: string, resource: string): ResourceStore | undefined {
    const info = lookupResource(group, version, resource);
    return info ? new FakeStore(this, info) : undefined;
  }

  async bind(namespace: string, binding: KubeObject, _ctx: RequestContext): Promise<void> {
    const store = this.store('', 'v1', 'pods')!;
    const pod = (await store.get(namespace, binding.metadata.name!)) as Obj;
    if (pod.spec?.nodeName) throw conflict({ group: '', resource: 'pods' }, pod.metadata.name, `pod ${pod.metadata.name} is already assigned to node "${pod.spec.nodeName}"`);
    this.bindings.push(binding);
    const next = structuredClone(pod);
    next.spec.nodeName = (binding as Obj).target.name;
    this.write(store.info, next as KubeObject, 'MODIFIED');
  }

  /** Adds objects directly, as if they had been created earlier. */
  seed(...objs: KubeObject[]): void {
    for (const o of objs) {
      const info = lookupKind(o.apiVersion ?? 'v1', o.kind ?? '');
      if (!info) throw new Error(`seed: unknown kind ${o.kind}`);
      const copy = structuredClone(o) as Obj;
      copy.metadata.uid ??= randomUUID();
      copy.metadata.creationTimestamp ??= this.clock()
        .toISOString()
        .replace(/\.\d+Z$/, 'Z');
      this.write(info, copy as KubeObject, 'ADDED');
    }
  }

  key(info: ResourceInfo, ns: string | undefined, name: string): string {
    return `${info.group}/${info.resource}/${info.namespaced ? ns : ''}/${name}`;
  }

  write(info: ResourceInfo, obj: KubeObject, type: 'ADDED' | 'MODIFIED' | 'DELETED'): KubeObject {
    const o = structuredClone(obj) as Obj;
    o.metadata.resourceVersion = String(++this.rev);
    const key = this.key(info, o.metadata.namespace, o.metadata.name);
    if (type === 'DELETED') this.objects.delete(key);
    else this.objects.set(key, o as KubeObject);
    for (const s of this.subscribers) {
      if (s.info !== info) continue;
      if (s.opts.namespace && o.metadata.namespace !== s.opts.namespace) continue;
      if (!matchLabels(s.opts.labelSelector, o.metadata.labels) || !matchFields(s.opts.fieldSelector, o)) continue;
      s.push({ type, object: structuredClone(o) as KubeObject });
    }
    return structuredClone(o) as KubeObject;
  }

  now(): string {
    return this.clock()
      .toISOString()
      .replace(/\.\d+Z$/, 'Z');
  }
}

class FakeStore implements ResourceStore {
  constructor(
    private readonly reg: FakeRegistry,
    readonly info: ResourceInfo,
  ) {}

  private gr() {
    return { group: this.info.group, resource: this.info.resource };
  }

  async get(ns: string | undefined, name: string): Promise<KubeObject> {
    const o = this.reg.objects.get(this.reg.key(this.info, ns, name));
    if (!o) throw notFound(this.gr(), name);
    return structuredClone(o);
  }

  private items(opts: { namespace?: string; labelSelector?: string; fieldSelector?: string }): KubeObject[] {
    const prefix = `${this.info.group}/${this.info.resource}/`;
    return [...this.reg.objects.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .map(([, o]) => o)
      .filter((o) => !opts.namespace || o.metadata.namespace === opts.namespace)
      .filter((o) => matchLabels(opts.labelSelector, o.metadata.labels) && matchFields(opts.fieldSelector, o))
      .sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`))
      .map((o) => structuredClone(o));
  }

  async list(opts: ListOptions): Promise<KubeList> {
    let items = this.items(opts);
    const start = opts.continue ? Number(opts.continue) : 0;
    items = items.slice(start);
    const metadata: KubeList['metadata'] = { resourceVersion: String(this.reg.rev) };
    if (opts.limit && items.length > opts.limit) {
      metadata.continue = String(start + opts.limit);
      metadata.remainingItemCount = items.length - opts.limit;
      items = items.slice(0, opts.limit);
    }
    return { kind: this.info.listKind, apiVersion: 'v1', metadata, items };
  }

  watch(opts: WatchOptions): Watch {
    const queue: WatchEvent[] = [];
    let wake: (() => void) | undefined;
    let stopped = false;
    const sub = {
      opts,
      info: this.info,
      push: (ev: WatchEvent) => {
        queue.push(ev);
        wake?.();
      },
    };
    if (!opts.resourceVersion || opts.resourceVersion === '0') for (const o of this.items(opts)) queue.push({ type: 'ADDED', object: o });
    this.reg.subscribers.add(sub);
    const reg = this.reg;
    return {
      stop() {
        stopped = true;
        reg.subscribers.delete(sub);
        wake?.();
      },
      events: {
        async *[Symbol.asyncIterator]() {
          while (!stopped) {
            const ev = queue.shift();
            if (ev) yield ev;
            else await new Promise<void>((r) => (wake = r));
          }
        },
      },
    };
  }

  private check(obj: KubeObject): void {
    const errs = this.reg.validate(obj);
    if (errs.length) throw invalid(this.info.kind, this.info.group, obj.metadata.name ?? '', errs);
  }

  async create(ns: string | undefined, obj: KubeObject, ctx: RequestContext): Promise<KubeObject> {
    const o = structuredClone(obj) as Obj;
    if (!o.metadata.name && o.metadata.generateName) o.metadata.name = `${o.metadata.generateName}${Math.random().toString(36).slice(2, 7)}`;
    if (this.info.namespaced) o.metadata.namespace = ns;
    o.apiVersion ??= this.info.group ? `${this.info.group}/${this.info.version}` : this.info.version;
    o.kind ??= this.info.kind;
    this.check(o as KubeObject);
    if (this.reg.objects.has(this.reg.key(this.info, ns, o.metadata.name))) throw alreadyExists(this.gr(), o.metadata.name);
    o.metadata.uid = randomUUID();
    o.metadata.creationTimestamp = this.reg.now();
    if (ctx.dryRun) return o as KubeObject;
    return this.reg.write(this.info, o as KubeObject, 'ADDED');
  }

  async update(ns: string | undefined, name: string, obj: KubeObject, ctx: RequestContext, sub?: Subresource): Promise<KubeObject> {
    const cur = (await this.get(ns, name)) as Obj;
    const rv = obj.metadata.resourceVersion;
    if (rv && rv !== cur.metadata.resourceVersion) throw conflict(this.gr(), name, OPTIMISTIC_LOCK_MESSAGE);
    let next: Obj;
    if (sub === 'status') next = { ...cur, status: (obj as Obj).status };
    else next = { ...structuredClone(obj), status: cur.status, metadata: { ...obj.metadata, uid: cur.metadata.uid, creationTimestamp: cur.metadata.creationTimestamp } };
    next.apiVersion ??= cur.apiVersion;
    next.kind ??= cur.kind;
    this.check(next as KubeObject);
    if (ctx.dryRun) return next as KubeObject;
    return this.reg.write(this.info, next as KubeObject, 'MODIFIED');
  }

  async patch(ns: string | undefined, name: string, type: string, patch: unknown, ctx: RequestContext, sub?: Subresource): Promise<KubeObject> {
    const cur = await this.get(ns, name);
    const patched = applyPatch(type, cur, patch) as KubeObject;
    checkPatchedTypes(this.info, patched);
    return this.update(ns, name, { ...patched, metadata: { ...patched.metadata, resourceVersion: cur.metadata.resourceVersion } }, ctx, sub);
  }

  async delete(ns: string | undefined, name: string, options: DeleteOptions, ctx: RequestContext): Promise<DeleteResult> {
    const cur = (await this.get(ns, name)) as Obj;
    if (ctx.dryRun) return { object: cur as KubeObject, deleted: false };
    const graceful = this.info.kind === 'Pod' && cur.spec?.nodeName && options.gracePeriodSeconds !== 0;
    if (graceful && !cur.metadata.deletionTimestamp) {
      const grace = options.gracePeriodSeconds ?? cur.spec?.terminationGracePeriodSeconds ?? 30;
      cur.metadata.deletionTimestamp = this.reg.now();
      cur.metadata.deletionGracePeriodSeconds = grace;
      return { object: this.reg.write(this.info, cur as KubeObject, 'MODIFIED'), deleted: false };
    }
    if (graceful) return { object: cur as KubeObject, deleted: false };
    return { object: this.reg.write(this.info, cur as KubeObject, 'DELETED'), deleted: true };
  }
}
