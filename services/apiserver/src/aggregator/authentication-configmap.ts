// kube-system/extension-apiserver-authentication (upstream: the apiserver's
// cluster-authentication-trust-controller): the client CA and the
// requestheader settings, from which an extension apiserver (metrics-server)
// learns whom to trust — client certificates of the cluster CA, and the
// X-Remote-* headers of a client certificate of the front-proxy CA with an
// allowed name.

import type { ConfigMap, KubeObject } from '@kubelab/api';
import { APISERVER } from '../authentication/user.js';
import type { RequestContext } from '../registry/interface.js';
import { ensure, getOrUndefined } from '../registry/ensure.js';
import type { ApiRegistry } from '../registry/registry.js';

/** The --requestheader-* flags. */
export interface RequestHeaderConfig {
  clientCaPem: string;
  allowedNames: string[];
  usernameHeaders: string[];
  groupHeaders: string[];
  extraHeadersPrefix: string[];
}

export const EXTENSION_AUTH_CONFIGMAP = 'extension-apiserver-authentication';
const ctx: RequestContext = { user: APISERVER, fieldManager: 'kube-apiserver' };

/** The ConfigMap's data: list values as JSON arrays, as upstream writes them. */
export function extensionAuthData(clientCaPem: string | undefined, rh: RequestHeaderConfig | undefined): Record<string, string> {
  const data: Record<string, string> = {};
  if (clientCaPem) data['client-ca-file'] = clientCaPem;
  if (rh) {
    data['requestheader-client-ca-file'] = rh.clientCaPem;
    data['requestheader-allowed-names'] = JSON.stringify(rh.allowedNames);
    data['requestheader-username-headers'] = JSON.stringify(rh.usernameHeaders);
    data['requestheader-group-headers'] = JSON.stringify(rh.groupHeaders);
    data['requestheader-extra-headers-prefix'] = JSON.stringify(rh.extraHeadersPrefix);
  }
  return data;
}

/** Creates or corrects the ConfigMap (once kube-system exists). */
export async function ensureExtensionAuthConfigMap(registry: ApiRegistry, data: Record<string, string>): Promise<void> {
  if (Object.keys(data).length === 0) return;
  const store = registry.mustStore('', 'configmaps');
  const cur = (await getOrUndefined(() => store.get('kube-system', EXTENSION_AUTH_CONFIGMAP))) as ConfigMap | undefined;
  if (!cur) {
    const cm: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: EXTENSION_AUTH_CONFIGMAP, namespace: 'kube-system' }, data };
    return ensure(() => store.create('kube-system', cm as KubeObject, ctx));
  }
  if (JSON.stringify(cur.data ?? {}) !== JSON.stringify(data)) await store.update('kube-system', EXTENSION_AUTH_CONFIGMAP, { ...cur, data } as KubeObject, ctx);
}
