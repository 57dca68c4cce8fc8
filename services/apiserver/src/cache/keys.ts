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
  if (!info) return undefined;
  if (info.namespaced && rest.length === 2) return { info, prefix, namespace: rest[0]!, name: unescapeKeyName(rest[1]!) };
  if (!info.namespaced && rest.length === 1) return { info, prefix, namespace: '', name: unescapeKeyName(rest[0]!) };
  return undefined;
}
