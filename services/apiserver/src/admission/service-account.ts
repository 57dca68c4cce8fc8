// ServiceAccount admission: a pod without a service account runs as
// `default` in its namespace.

import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export function serviceAccount(): AdmissionPlugin {
  return {
    name: 'ServiceAccount',
    admit(a: AdmissionAttributes) {
      if (a.operation !== 'CREATE' || a.info.resource !== 'pods' || a.info.group !== '' || a.subresource || !a.object) return;
      const pod = a.object as unknown as { spec?: { serviceAccountName?: string; serviceAccount?: string } };
      if (!pod.spec) pod.spec = {};
      if (!pod.spec.serviceAccountName) pod.spec.serviceAccountName = pod.spec.serviceAccount || 'default';
      // The deprecated alias is still written, as upstream's defaulting does.
      pod.spec.serviceAccount = pod.spec.serviceAccountName;
    },
  };
}
