import { describe, expect, it } from 'vitest';
import { CATALOG, lookupCatalog } from '@kubelab/images';
import { NETPOL_IDENTITY, NETPOL_IMAGE, networkPolicyAddonObjects } from './network-policy-addon.js';

describe('the kube-network-policies addon', () => {
  it('gives the ServiceAccount list and watch of pods, namespaces and networkpolicies, bound to the identity the agents present', () => {
    const o = networkPolicyAddonObjects('compose');
    expect(o.role.rules).toEqual([
      { apiGroups: [''], resources: ['pods', 'namespaces'], verbs: ['list', 'watch'] },
      { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['list', 'watch'] },
    ]);
    expect(o.binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'kube-network-policies', namespace: 'kube-system' }]);
    expect(NETPOL_IDENTITY.commonName).toBe(`system:serviceaccount:${o.serviceAccount.metadata.namespace}:${o.serviceAccount.metadata.name}`);
  });

  it("runs a system-node-critical pod per node from an image of the runtime's catalogue, saying where the real agent runs", () => {
    const ds = networkPolicyAddonObjects('local').daemonSet;
    const c = ds.spec!.template.spec!.containers[0]!;
    expect(c.image).toBe(NETPOL_IMAGE);
    const [repository, tag] = NETPOL_IMAGE.split(':');
    expect(lookupCatalog(repository!, tag, undefined, CATALOG)?.tag).toBe('v0.7.0');
    expect(ds.spec!.template.spec!).toMatchObject({ hostNetwork: true, priorityClassName: 'system-node-critical' });
    expect(c.command!.join(' ')).toContain('kube-network-policies.service');
    expect(networkPolicyAddonObjects('compose').daemonSet.spec!.template.spec!.containers[0]!.command!.join(' ')).toContain('docker compose logs kube-network-policies-N');
  });
});
