// The files of configMap, secret, downwardAPI and projected volumes, as pure
// functions of the objects they read (upstream MakePayload in the configmap
// and secret plugins, downwardapi.CollectData, projected collectData).

import type { ConfigMap, DownwardAPIVolumeFile, KeyToPath, Pod, Secret } from '@kubelab/api';
import type { Payload } from './atomic-writer.js';
import { extractFieldPath, resourceFieldValue } from './downward.js';
import { aggregate } from './sources.js';

/** 0644, the default mode of configMap, secret, downwardAPI and projected volume files. */
export const DEFAULT_MODE = 0o644;

/** Keys to files (upstream configmap.MakePayload): all keys, or just the items (a missing one fails unless optional). */
export function configMapPayload(items: KeyToPath[] | undefined, cm: ConfigMap, defaultMode: number, optional: boolean): Payload {
  const data = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(cm.data ?? {})) data.set(k, Buffer.from(v));
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) data.set(k, Buffer.from(v, 'base64'));
  return keysToFiles(items, data, defaultMode, optional, (key) => `configmap references non-existent config key: ${key}`);
}

/** Secret data (base64 in the API) to files (upstream secret.MakePayload). */
export function secretPayload(items: KeyToPath[] | undefined, secret: Secret, defaultMode: number, optional: boolean): Payload {
  const data = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(secret.data ?? {})) data.set(k, Buffer.from(v, 'base64'));
  return keysToFiles(items, data, defaultMode, optional, (key) => `references non-existent secret key: ${key}`);
}

function keysToFiles(items: KeyToPath[] | undefined, data: Map<string, Buffer>, defaultMode: number, optional: boolean, missing: (key: string) => string): Payload {
  const out: Payload = new Map();
  if (!items?.length) {
    for (const [k, v] of data) out.set(k, { data: v, mode: defaultMode });
    return out;
  }
  for (const it of items) {
    const v = data.get(it.key);
    if (v === undefined) {
      if (optional) continue;
      throw new Error(missing(it.key));
    }
    out.set(it.path, { data: v, mode: it.mode ?? defaultMode });
  }
  return out;
}

/** Pod metadata and container resources to files (upstream downwardapi.CollectData); errors are aggregated. */
export function downwardAPIPayload(items: DownwardAPIVolumeFile[] | undefined, pod: Pod, defaultMode: number, allocatable: Record<string, string>): Payload {
  const out: Payload = new Map();
  const errs: Error[] = [];
  for (const it of items ?? []) {
    try {
      let value = '';
      if (it.fieldRef) value = extractFieldPath(pod, it.fieldRef.fieldPath);
      else if (it.resourceFieldRef) value = resourceFieldValue(it.resourceFieldRef, pod, undefined, allocatable);
      out.set(it.path, { data: Buffer.from(value), mode: it.mode ?? defaultMode });
    } catch (e) {
      errs.push(e as Error);
    }
  }
  const err = aggregate(errs);
  if (err) throw err;
  return out;
}
