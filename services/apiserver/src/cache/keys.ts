// Storage keys back to (resource, namespace, name): the inverse of
// storageKey(), as etcd3's store splits its keys.

import { RESOURCES, storagePrefix, unescapeKeyName, type ResourceInfo } from '@kubelab/api';

export interface KeyParts {
  info: ResourceInfo;
  prefix: string;
  namespace: string;
  name: string;
}

const byPrefix = new Map(RESOURCES.map((i) => [storagePrefix(i), i]));
const REGISTRY = '/registry/';

export function parseKey(key: string): KeyParts | undefined {
  // /registry/<resource>/... or /registry/<group>/<resource>/...; read by offsets, not split: the cache parses a key per
  // write applied and per lookup.
  if (!key.startsWith(REGISTRY)) return undefined;
  const a = key.indexOf('/', REGISTRY.length);
  if (a < 0) return undefined;
  let prefix = key.slice(0, a);
  let info = byPrefix.get(prefix);
  let restStart = a + 1;
  if (!info) {
    const b = key.indexOf('/', a + 1);
    if (b >= 0) {
      prefix = key.slice(0, b);
      info = byPrefix.get(prefix);
      restStart = b + 1;
    }
  }
  if (!info) return customResourceKey(key.split('/'));
  const s = key.indexOf('/', restStart);
  if (info.namespaced) {
    if (s < 0 || key.indexOf('/', s + 1) >= 0) return undefined;
    return { info, prefix, namespace: key.slice(restStart, s), name: unescapeKeyName(key.slice(s + 1)) };
  }
  if (s >= 0) return undefined;
  return { info, prefix, namespace: '', name: unescapeKeyName(key.slice(restStart)) };
}

/**
 * A key of a custom resource (`/registry/<group>/<plural>/[<ns>/]<name>`,
 * the group a domain with a dot, as CRDs require): kept whether or not its
 * CRD is known yet, so a CRD's store finds its objects however the initial
 * load is ordered. Its scope is the key's shape; the info stands in for the
 * CRD's until a store serves it.
 */
function customResourceKey(parts: string[]): KeyParts | undefined {
  const [, , group, resource, ...rest] = parts;
  if (!group?.includes('.') || !resource || rest.length < 1 || rest.length > 2) return undefined;
  const namespaced = rest.length === 2;
  const info: ResourceInfo = {
    group,
    version: '',
    resource,
    singular: '',
    kind: '',
    listKind: '',
    namespaced,
    shortNames: [],
    categories: [],
    verbs: [],
    subresources: [],
  };
  return { info, prefix: `/registry/${group}/${resource}`, namespace: namespaced ? rest[0]! : '', name: unescapeKeyName(rest[rest.length - 1]!) };
}
