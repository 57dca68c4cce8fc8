// NamespaceLifecycle: no new content in a namespace that does not exist or
// is terminating, and the system namespaces cannot be deleted. As upstream,
// it runs first among the mutating plugins: a pod for a missing namespace is
// its 404, before ServiceAccount admission looks for the pod's account there.

import { forbidden, notFound, type KubeObject } from '@kubelab/api';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);
const NAMESPACES = { group: '', resource: 'namespaces' };

/** The namespace object, synchronously when the cache can answer at once (every create asks: no promise then). */
export type NamespaceGetter = (name: string) => KubeObject | undefined | Promise<KubeObject | undefined>;

function checkNamespace(a: AdmissionAttributes, ns: KubeObject | undefined): void {
  if (!ns) throw notFound(NAMESPACES, a.namespace);
  const phase = (ns as { status?: { phase?: string } }).status?.phase;
  if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
    throw forbidden(a.info, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
  }
}

export function namespaceLifecycle(getNamespace: NamespaceGetter): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    admit(a: AdmissionAttributes) {
      if (a.info.resource === 'namespaces' && a.info.group === '') {
        if (a.operation === 'DELETE' && IMMORTAL.has(a.name)) {
          throw forbidden(NAMESPACES, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (!a.info.namespaced || a.operation !== 'CREATE') return;
      const ns = getNamespace(a.namespace);
      if (ns instanceof Promise) return ns.then((n) => checkNamespace(a, n));
      checkNamespace(a, ns);
    },
  };
}
