// An in-memory Clientset for controller tests (client-go's fake clientset +
// object tracker): objects with revisions, optimistic concurrency, watches,
// a log of every API action, and reactors to inject failures.

import {
  alreadyExists,
  applyPatch,
  badRequest,
  conflict,
  lookupResource,
  schemaTypeOf,
  formatTime,
  notFound,
  OPTIMISTIC_LOCK_MESSAGE,
  type Binding,
  type KubeList,
  type KubeObject,
  type TokenRequest,
  type WatchEvent,
} from '@kubelab/api';
import { buildClientset, type Clientset } from '../clientset/clientset.js';
import { patchContentType, type DeleteResult, type GroupVersionResource, type ListOptions, type PatchType, type SubresourceClient, type WatchOptions } from '../clientset/types.js';
import { Channel } from '../util/channel.js';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete';

/** One recorded API call, as client-go's testing.Action. */
export interface Action {
  verb: Verb;
  resource: string;
  namespace: string;
  name?: string;
  subresource?: string;
  object?: KubeObject;
  patch?: unknown;
  patchType?: string;
}

/** Returns a value to answer the call, throws to fail it, or undefined to let the tracker answer. */
export type Reactor = (action: Action) => unknown;

interface Watcher {
  gvr: string;
  namespace: string;
  ch: Channel<WatchEvent<KubeObject>>;
  labelSelector?: string;
  fieldSelector?: string;
}

const gvrKey = (g: GroupVersionResource) => `${g.group}/${g.version}/${g.resource}`;
const objKey = (ns: string, name: string) => `${ns}/${name}`;

export class FakeClientset {
  private rv = 0;
  private uid = 0;
  private readonly store = new Map<string, Map<string, KubeObject>>();
  private readonly watchers = new Set<Watcher>();
  private reactors: Array<{ verb: Verb | '*'; resource: string; fn: Reactor }> = [];
  /** Every call, in order. */
  readonly actions: Action[] = [];
  readonly clientset: Clientset;

  constructor(private readonly now: () => number = Date.now) {
    this.clientset = buildClientset(
      (gvr, ns) => this.client(gvr, ns),
      () => this.closeWatches(),
    );
  }

  /** Seeds objects without recording actions (as NewSimpleClientset(objs...)). */
  seed(gvr: GroupVersionResource, ...objs: KubeObject[]): void {
    for (const o of objs) this.put(gvr, this.stamp(structuredClone(o)), 'ADDED');
  }

  /** Runs before the tracker: answer, fail or pass (client-go PrependReactor). */
  prependReactor(verb: Verb | '*', resource: string, fn: Reactor): void {
    this.reactors.unshift({ verb, resource, fn });
  }

  clearActions(): void {
    this.actions.length = 0;
  }

  /** Actions as short lines: `create pods default/web-1`, `patch events/x`. */
  actionLines(): string[] {
    return this.actions.map((a) => {
      const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
      const target = a.name ? (a.namespace ? `${a.namespace}/${a.name}` : a.name) : a.namespace;
      return `${a.verb} ${res}${target ? ' ' + target : ''}`;
    });
  }

  /** The stored object, or undefined. */
  peek<T extends KubeObject>(gvr: GroupVersionResource, namespace: string, name: string): T | undefined {
    const o = this.bucket(gvr).get(objKey(namespace, name));
    return o ? (structuredClone(o) as T) : undefined;
  }

  /** Stored objects of a resource (optionally one namespace), not recorded as an action. */
  objects<T extends KubeObject>(gvr: GroupVersionResource, namespace?: string): T[] {
    return [...this.bucket(gvr).values()].filter((o) => !namespace || o.metadata.namespace === namespace).map((o) => structuredClone(o) as T);
  }

  closeWatches(): void {
    for (const w of this.watchers) w.ch.end();
    this.watchers.clear();
  }

  private bucket(gvr: GroupVersionResource): Map<string, KubeObject> {
    const k = gvrKey(gvr);
    let b = this.store.get(k);
    if (!b) this.store.set(k, (b = new Map()));
    return b;
  }

  private react(a: Action): { handled: boolean; value?: unknown } {
    this.actions.push(structuredClone(a));
    for (const r of this.reactors) {
      if ((r.verb === '*' || r.verb === a.verb) && (r.resource === '*' || r.resource === a.resource)) {
        const v = r.fn(a);
        if (v !== undefined) return { handled: true, value: v };
      }
    }
    return { handled: false };
  }

  private stamp(o: KubeObject): KubeObject {
    o.metadata.resourceVersion = String(++this.rv);
    o.metadata.uid ??= `00000000-0000-4000-8000-${String(++this.uid).padStart(12, '0')}`;
    o.metadata.creationTimestamp ??= formatTime(this.now());
    return o;
  }

  private put(gvr: GroupVersionResource, o: KubeObject, type: 'ADDED' | 'MODIFIED' | 'DELETED'): void {
    const key = objKey(o.metadata.namespace ?? '', o.metadata.name ?? '');
    if (type === 'DELETED') this.bucket(gvr).delete(key);
    else this.bucket(gvr).set(key, o);
    for (const w of this.watchers) {
      if (w.gvr !== gvrKey(gvr)) continue;
      if (w.namespace && w.namespace !== (o.metadata.namespace ?? '')) continue;
      if (!matches(o, w.labelSelector, w.fieldSelector)) continue;
      w.ch.push({ type, object: structuredClone(o) });
    }
  }

  private client<T extends KubeObject>(gvr: GroupVersionResource, namespace: string): SubresourceClient<T> {
    const resource = gvr.resource;
    const gr = { group: gvr.group, resource };
    const clone = <X>(x: X) => structuredClone(x);
    const self = this; // eslint-disable-line @typescript-eslint/no-this-alias -- the returned object's methods have a this of their own
    const get = (ns: string, name: string): T => {
      const o = self.bucket(gvr).get(objKey(ns, name));
      if (!o) throw notFound(gr, name);
      return o as T;
    };
    const write = (verb: 'update', obj: T, subresource?: string): T => {
      const ns = namespace || obj.metadata.namespace || '';
      const name = obj.metadata.name ?? '';
      const r = self.react({ verb, resource, namespace: ns, name, object: obj, ...(subresource ? { subresource } : {}) });
      if (r.handled) return r.value as T;
      const cur = get(ns, name);
      if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== cur.metadata.resourceVersion) {
        throw conflict(gr, name, OPTIMISTIC_LOCK_MESSAGE);
      }
      const next = clone(obj);
      next.metadata = { ...clone(cur.metadata), ...next.metadata, namespace: cur.metadata.namespace, uid: cur.metadata.uid };
      self.put(gvr, self.stamp(next), 'MODIFIED');
      return clone(next);
    };
    return {
      gvr,
      namespace,
      async get(name) {
        const r = self.react({ verb: 'get', resource, namespace, name });
        if (r.handled) return r.value as T;
        return clone(get(namespace, name));
      },
      async list(opts: ListOptions = {}) {
        const r = self.react({ verb: 'list', resource, namespace });
        if (r.handled) return r.value as KubeList<T>;
        const items = [...self.bucket(gvr).values()].filter((o) => !namespace || o.metadata.namespace === namespace).filter((o) => matches(o, opts.labelSelector, opts.fieldSelector));
        return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: String(self.rv) }, items: clone(items) as T[] };
      },
      watch(opts: WatchOptions = {}) {
        self.react({ verb: 'watch', resource, namespace });
        const w: Watcher = {
          gvr: gvrKey(gvr),
          namespace,
          ch: new Channel(() => self.watchers.delete(w)),
          ...(opts.labelSelector ? { labelSelector: opts.labelSelector } : {}),
          ...(opts.fieldSelector ? { fieldSelector: opts.fieldSelector } : {}),
        };
        if (!opts.resourceVersion || opts.resourceVersion === '0') {
          for (const o of self.bucket(gvr).values()) {
            if (namespace && o.metadata.namespace !== namespace) continue;
            if (matches(o, opts.labelSelector, opts.fieldSelector)) w.ch.push({ type: 'ADDED', object: clone(o) });
          }
        }
        self.watchers.add(w);
        return w.ch as unknown as Channel<WatchEvent<T>>;
      },
      async create(obj) {
        const ns = namespace || obj.metadata.namespace || '';
        const r = self.react({ verb: 'create', resource, namespace: ns, object: obj });
        if (r.handled) return r.value as T;
        const o = clone(obj);
        if (!o.metadata.name && o.metadata.generateName) o.metadata.name = `${o.metadata.generateName}${(++self.uid).toString(36).padStart(5, 'x')}`;
        if (!o.metadata.name) throw badRequest('metadata.name: Required value: name or generateName is required');
        if (ns) o.metadata.namespace = ns;
        if (self.bucket(gvr).has(objKey(ns, o.metadata.name))) throw alreadyExists(gr, o.metadata.name);
        self.put(gvr, self.stamp(o), 'ADDED');
        return clone(o);
      },
      async update(obj, opts = {}) {
        return write('update', obj, opts.subresource);
      },
      async updateStatus(obj) {
        return write('update', obj, 'status');
      },
      async patch(name: string, patchType: PatchType, patch: unknown, opts = {}) {
        const type = patchContentType(patchType);
        const body = typeof patch === 'string' ? (JSON.parse(patch) as unknown) : patch;
        const r = self.react({
          verb: 'patch',
          resource,
          namespace,
          name,
          patch: body,
          patchType: type,
          ...(opts.subresource ? { subresource: opts.subresource } : {}),
        });
        if (r.handled) return r.value as T;
        const cur = get(namespace, name);
        // The apiserver's own patch machinery, with the kind's merge keys for strategic patches.
        const info = lookupResource(gvr.group, gvr.version, gvr.resource);
        const next = applyPatch(type, clone(cur), body, info ? schemaTypeOf(info) : undefined) as T;
        next.metadata.resourceVersion = cur.metadata.resourceVersion;
        self.put(gvr, self.stamp(next), 'MODIFIED');
        return clone(next);
      },
      async delete(name) {
        const r = self.react({ verb: 'delete', resource, namespace, name });
        if (r.handled) return r.value as DeleteResult<T>;
        const cur = get(namespace, name);
        self.put(gvr, cur, 'DELETED');
        return { object: clone(cur), deleted: true };
      },
      async bind(binding: Binding) {
        const ns = namespace || binding.metadata.namespace || '';
        const name = binding.metadata.name ?? '';
        const r = self.react({ verb: 'create', resource, namespace: ns, name, subresource: 'binding', object: binding });
        if (r.handled) return;
        const pod = clone(get(ns, name)) as KubeObject & { spec?: { nodeName?: string } };
        if (pod.spec?.nodeName) throw conflict(gr, name, `pod ${name} is already assigned to node "${pod.spec.nodeName}"`);
        pod.spec = { ...pod.spec, nodeName: binding.target.name ?? '' };
        self.put(gvr, self.stamp(pod), 'MODIFIED');
      },
      async createToken(name: string, request: TokenRequest) {
        const r = self.react({ verb: 'create', resource, namespace, name, subresource: 'token', object: request as KubeObject });
        if (r.handled) return r.value as TokenRequest;
        get(namespace, name);
        // Not a JWT: a recognisable fake token that names what was asked (reactors return real ones when a test needs them).
        const expirationSeconds = request.spec.expirationSeconds ?? 3600;
        const token = `fake-token:${namespace}:${name}:${self.uid++}`;
        return { ...clone(request), spec: { ...request.spec, expirationSeconds }, status: { token, expirationTimestamp: formatTime(self.now() + expirationSeconds * 1000) } };
      },
    };
  }
}

/** Equality-based label (`a=b,c!=d`) and field (`spec.nodeName=x`) selectors. */
function matches(o: KubeObject, labelSelector?: string, fieldSelector?: string): boolean {
  const labels = o.metadata.labels ?? {};
  for (const term of (labelSelector ?? '').split(',').filter(Boolean)) {
    const [k, op, v] = splitTerm(term);
    if (op === 'exists' ? !(k in labels) : op === '=' ? labels[k] !== v : labels[k] === v) return false;
  }
  for (const term of (fieldSelector ?? '').split(',').filter(Boolean)) {
    const [k, op, v] = splitTerm(term);
    const actual = String(k.split('.').reduce<unknown>((x, p) => (x as Record<string, unknown> | undefined)?.[p], o) ?? '');
    if (op === '=' ? actual !== v : actual === v) return false;
  }
  return true;
}

function splitTerm(term: string): [string, '=' | '!=' | 'exists', string] {
  const ne = term.indexOf('!=');
  if (ne >= 0) return [term.slice(0, ne).trim(), '!=', term.slice(ne + 2).trim()];
  const eq = term.indexOf('=');
  if (eq >= 0)
    return [
      term.slice(0, eq).trim(),
      '=',
      term
        .slice(eq + 1)
        .replace(/^=/, '')
        .trim(),
    ];
  return [term.trim(), 'exists', ''];
}

/** A fake clientset (see FakeClientset for seeding, actions and reactors). */
export function createFakeClientset(now?: () => number): FakeClientset {
  return new FakeClientset(now);
}
