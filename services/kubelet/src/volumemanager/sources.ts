// Where the kubelet reads the ConfigMaps and Secrets pods refer to (upstream
// configmap.Manager / secret.Manager). A missing object is the manager's
// NotFound error, whose text users see in events: `configmap "x" not found`.

import { isNotFound, type ConfigMap, type PersistentVolume, type PersistentVolumeClaim, type Secret } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import type { Context } from '@kubelab/tracing';

export interface ObjectSource {
  /** The ConfigMap, or undefined when it does not exist; other failures throw. */
  configMap(namespace: string, name: string): Promise<ConfigMap | undefined>;
  /** The Secret, or undefined when it does not exist; other failures throw. */
  secret(namespace: string, name: string): Promise<Secret | undefined>;
  /** The claim a persistentVolumeClaim volume names, and the volume bound to it (absent: such volumes cannot be set up). */
  persistentVolumeClaim?(namespace: string, name: string): Promise<PersistentVolumeClaim | undefined>;
  persistentVolume?(name: string): Promise<PersistentVolume | undefined>;
}

const NOT_FOUND = Symbol.for('kubelab.kubelet.ObjectNotFound');

/** NotFound from the kubelet's object managers, named by their resource (`configmap`, `secret`). */
export class ObjectNotFoundError extends Error {
  readonly [NOT_FOUND] = true;
  override name = 'ObjectNotFoundError';
  constructor(
    readonly resource: 'configmap' | 'secret',
    readonly objectName: string,
  ) {
    super(`${resource} "${objectName}" not found`);
  }
  static isInstance(e: unknown): e is ObjectNotFoundError {
    return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[NOT_FOUND] === true;
  }
}

export async function getConfigMap(src: ObjectSource, namespace: string, name: string): Promise<ConfigMap> {
  const cm = await src.configMap(namespace, name);
  if (!cm) throw new ObjectNotFoundError('configmap', name);
  return cm;
}

export async function getSecret(src: ObjectSource, namespace: string, name: string): Promise<Secret> {
  const s = await src.secret(namespace, name);
  if (!s) throw new ObjectNotFoundError('secret', name);
  return s;
}

/**
 * The ConfigMap a volume or projected source names; an optional one that does
 * not exist reads as having no keys (upstream: an empty volume).
 */
export function volumeConfigMap(src: ObjectSource, namespace: string, name: string, optional: boolean): Promise<ConfigMap> {
  return orEmpty(getConfigMap(src, namespace, name), optional, namespace, name);
}

/** The Secret a volume or projected source names; optional as volumeConfigMap. */
export function volumeSecret(src: ObjectSource, namespace: string, name: string, optional: boolean): Promise<Secret> {
  return orEmpty(getSecret(src, namespace, name), optional, namespace, name);
}

async function orEmpty<T extends ConfigMap | Secret>(get: Promise<T>, optional: boolean, namespace: string, name: string): Promise<T> {
  try {
    return await get;
  } catch (e) {
    if (!(ObjectNotFoundError.isInstance(e) && optional)) throw e;
    return { metadata: { name, namespace } } as T;
  }
}

/** Several errors as one, printed as upstream's utilerrors.Aggregate: one message alone, else `[a, b]`. */
export function aggregate(errs: Error[]): Error | undefined {
  const msgs = [...new Set(errs.map((e) => e.message))];
  if (msgs.length === 0) return undefined;
  return msgs.length === 1 ? errs[0]! : new Error(`[${msgs.join(', ')}]`);
}

/** Per clientset: the ConfigMap and Secret reads in flight, by kind/namespace/name. */
const inFlight = new WeakMap<Clientset, Map<string, Promise<unknown>>>();

/**
 * One GET for the reads of one object that overlap: a burst of pods that
 * mount the same object (every pod's kube-root-ca.crt) sets their volumes up
 * at once, and each sync reads it again (upstream reads such objects from its
 * watch-fed cache, never with a request per pod). A read that starts after
 * the GET answered makes its own, so nothing older than the read is returned.
 */
function shared<T>(cs: Clientset, key: string, get: () => Promise<T>): Promise<T> {
  let reads = inFlight.get(cs);
  if (!reads) inFlight.set(cs, (reads = new Map()));
  const pending = reads.get(key) as Promise<T> | undefined;
  if (pending) return pending;
  const p = get().finally(() => reads.delete(key));
  reads.set(key, p);
  return p;
}

/** ConfigMaps and Secrets read from the apiserver (under a sync's trace context when given); not found → undefined. */
export function apiObjectSource(cs: Clientset, opts?: { traceContext: Context }): ObjectSource {
  return {
    configMap: (ns, name) => shared(cs, `configmaps/${ns}/${name}`, () => orUndefined(() => cs.core.configMaps(ns).get(name, opts))),
    secret: (ns, name) => shared(cs, `secrets/${ns}/${name}`, () => orUndefined(() => cs.core.secrets(ns).get(name, opts))),
    persistentVolumeClaim: (ns, name) => orUndefined(() => cs.core.persistentVolumeClaims(ns).get(name, opts)),
    persistentVolume: (name) => orUndefined(() => cs.core.persistentVolumes().get(name, opts)),
  };
}

/** The object, or undefined when the apiserver says NotFound. */
async function orUndefined<T>(get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}
