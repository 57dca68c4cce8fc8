// Where the token authenticators look up the objects a token names (upstream
// serviceaccount.ServiceAccountTokenGetter): synchronously from the watch
// cache, so authenticating a request costs no storage round trip.

import { RESOURCES, storageKey, type KubeObject, type Node, type Pod, type Secret, type ServiceAccount } from '@kubelab/api';

export interface ServiceAccountTokenGetter {
  serviceAccount(namespace: string, name: string): ServiceAccount | undefined;
  pod(namespace: string, name: string): Pod | undefined;
  secret(namespace: string, name: string): Secret | undefined;
  node(name: string): Node | undefined;
}

const info = (resource: string) => RESOURCES.find((r) => r.group === '' && r.resource === resource)!;
const SERVICE_ACCOUNTS = info('serviceaccounts');
const PODS = info('pods');
const SECRETS = info('secrets');
const NODES = info('nodes');

/** A getter over anything with the watch cache's `get(key)`. */
export function cacheTokenGetter(cache: { get(key: string): { obj: KubeObject } | undefined }): ServiceAccountTokenGetter {
  return {
    serviceAccount: (ns, name) => cache.get(storageKey(SERVICE_ACCOUNTS, ns, name))?.obj as ServiceAccount | undefined,
    pod: (ns, name) => cache.get(storageKey(PODS, ns, name))?.obj as Pod | undefined,
    secret: (ns, name) => cache.get(storageKey(SECRETS, ns, name))?.obj as Secret | undefined,
    node: (name) => cache.get(storageKey(NODES, undefined, name))?.obj as Node | undefined,
  };
}
