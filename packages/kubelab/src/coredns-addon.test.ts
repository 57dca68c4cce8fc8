import { describe, expect, it } from 'vitest';
import { corednsObjects, dnsServiceIp, kubeadmCorefile } from './coredns-addon.js';

describe("kubeadm's CoreDNS addon", () => {
  it('puts kube-dns at the tenth address of the service range', () => {
    expect(dnsServiceIp('10.96.0.0/12')).toBe('10.96.0.10');
    expect(dnsServiceIp('172.20.0.0/16')).toBe('172.20.0.10');
    expect(() => dnsServiceIp('10.96.0.0/30')).toThrow('--service-cidr "10.96.0.0/30": not an IPv4 CIDR with room for the DNS Service IP');
  });

  it('writes the Deployment, Service, ConfigMap and RBAC as kubeadm does', () => {
    const o = corednsObjects({ serviceCidr: '10.96.0.0/12' });
    expect(o.service.metadata).toMatchObject({ name: 'kube-dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/name': 'CoreDNS' } });
    expect(o.service.spec).toMatchObject({
      clusterIP: '10.96.0.10',
      selector: { 'k8s-app': 'kube-dns' },
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
        { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
      ],
    });
    const spec = o.deployment.spec!.template.spec!;
    expect(o.deployment.spec?.replicas).toBe(2);
    expect(spec).toMatchObject({ priorityClassName: 'system-cluster-critical', serviceAccountName: 'coredns', dnsPolicy: 'Default' });
    expect(spec.tolerations).toContainEqual({ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' });
    const c = spec.containers[0]!;
    expect(c).toMatchObject({ image: 'registry.k8s.io/coredns/coredns:v1.11.3', args: ['-conf', '/etc/coredns/Corefile'] });
    expect(c.env).toBeUndefined();
    expect(c.livenessProbe?.httpGet).toEqual({ path: '/health', port: 8080, scheme: 'HTTP' });
    expect(c.readinessProbe?.httpGet).toEqual({ path: '/ready', port: 8181, scheme: 'HTTP' });
    expect(c.ports?.map((p) => `${p.name} ${p.containerPort}/${p.protocol}`)).toEqual(['dns 53/UDP', 'dns-tcp 53/TCP', 'metrics 9153/TCP']);
    expect(o.configMap.data?.Corefile).toBe(kubeadmCorefile());
    expect(o.configMap.data?.Corefile).toContain('kubernetes cluster.local in-addr.arpa ip6.arpa {\n       pods insecure\n       fallthrough in-addr.arpa ip6.arpa\n       ttl 30\n    }');
    expect(o.clusterRole.rules).toEqual([
      { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
      { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
    ]);
    expect(o.clusterRoleBinding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'coredns', namespace: 'kube-system' }]);
  });

  it("hands the local runner's container the apiserver's loopback address", () => {
    const c = corednsObjects({ serviceCidr: '10.96.0.0/12', apiserver: 'https://127.0.0.1:6443' }).deployment.spec!.template.spec!.containers[0]!;
    expect(c.env).toEqual([{ name: 'KUBELAB_APISERVER', value: 'https://127.0.0.1:6443' }]);
  });
});
