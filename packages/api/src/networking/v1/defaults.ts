// SetDefaults_NetworkPolicy and SetDefaults_NetworkPolicyPort (pkg/apis/networking/v1/defaults.go).
import type { NetworkPolicy } from './types.js';

export function defaultNetworkPolicy(np: NetworkPolicy): void {
  const spec = np.spec;
  if (!spec) return;
  // Every policy without policyTypes isolates ingress; egress too when it has egress rules.
  if (!spec.policyTypes || spec.policyTypes.length === 0) {
    spec.policyTypes = spec.egress && spec.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
  }
  for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) {
    for (const port of rule?.ports ?? []) if (port) port.protocol ??= 'TCP';
  }
}
