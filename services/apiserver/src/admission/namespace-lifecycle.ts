// NamespaceLifecycle: no new content in a namespace that does not exist or
// is terminating, and the system namespaces cannot be deleted.

import { forbidden, notFound, type KubeObject } from '@kubelab/api';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

const IMMORTAL = new Set(['default', 'kube-system', 'kube-public']);
const NAMESPACES = { group: '', resource: 'namespaces' };

export function namespaceLifecycle(getNamespace: (name: string) => Promise<KubeObject | undefined>): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    async validate(a: AdmissionAttributes) {
      if (a.info.resource === 'namespaces' && a.info.group === '') {
        if (a.operation === 'DELETE' && IMMORTAL.has(a.name)) {
          throw forbidden(NAMESPACES, a.name, 'this namespace may not be deleted');
        }
        return;
      }
      if (!a.info.namespaced || a.operation !== 'CREATE') return;
      const ns = await getNamespace(a.namespace);
      if (!ns) throw notFound(NAMESPACES, a.namespace);
      const phase = (ns as { status?: { phase?: string } }).status?.phase;
      if (ns.metadata.deletionTimestamp || phase === 'Terminating') {
        throw forbidden(a.info, a.name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
      }
    },
  };
}
