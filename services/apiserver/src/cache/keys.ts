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

export function parseKey(key: string): KeyParts | undefined {
  // /registry/<resource>/... or /registry/<group>/<resource>/...
  const parts = key.split('/');
  if (parts[0] !== '' || parts[1] !== 'registry' || parts.length < 4) return undefined;
  let prefix = `/registry/${parts[2]}`;
  let info = byPrefix.get(prefix);
  let rest = parts.slice(3);
  if (!info && parts.length >= 5) {
    prefix = `/registry/${parts[2]}/${parts[3]}`;
    info = byPrefix.get(prefix);
    rest = parts.slice(4);
  }
  if (!info) return customResourceKey(parts);
  if (info.namespaced && rest.length === 2) return { info, prefix, namespace: rest[0]!, name: unescapeKeyName(rest[1]!) };
  if (!info.namespaced && rest.length === 1) return { info, prefix, namespace: '', name: unescapeKeyName(rest[0]!) };
  return undefined;
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
