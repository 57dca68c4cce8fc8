import type { Container, Pod, Service, ServicePort } from '@kubelab/api';
import { describe, expect, it } from 'vitest';
import { makeEnvironmentVariables } from './env.js';
import { serviceEnvVars, servicesForPod } from './service-env.js';

const svc = (ns: string, name: string, clusterIP: string | undefined, ports: ServicePort[] = []): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { namespace: ns, name },
  spec: { ...(clusterIP !== undefined ? { clusterIP } : {}), ports },
});

const kubernetes = svc('default', 'kubernetes', '10.96.0.1', [{ name: 'https', protocol: 'TCP', port: 443, targetPort: 6443 }]);
const web = svc('shop', 'web-front', '10.96.12.7', [
  { name: 'http', protocol: 'TCP', port: 80 },
  { name: 'dns', protocol: 'UDP', port: 53 },
]);

describe('service environment variables (upstream envvars.FromServices)', () => {
  it('names the cluster IP and each port in both forms', () => {
    expect(Object.fromEntries(serviceEnvVars([web]))).toEqual({
      WEB_FRONT_SERVICE_HOST: '10.96.12.7',
      WEB_FRONT_SERVICE_PORT: '80',
      WEB_FRONT_SERVICE_PORT_HTTP: '80',
      WEB_FRONT_SERVICE_PORT_DNS: '53',
      WEB_FRONT_PORT: 'tcp://10.96.12.7:80',
      WEB_FRONT_PORT_80_TCP: 'tcp://10.96.12.7:80',
      WEB_FRONT_PORT_80_TCP_PROTO: 'tcp',
      WEB_FRONT_PORT_80_TCP_PORT: '80',
      WEB_FRONT_PORT_80_TCP_ADDR: '10.96.12.7',
      WEB_FRONT_PORT_53_UDP: 'udp://10.96.12.7:53',
      WEB_FRONT_PORT_53_UDP_PROTO: 'udp',
      WEB_FRONT_PORT_53_UDP_PORT: '53',
      WEB_FRONT_PORT_53_UDP_ADDR: '10.96.12.7',
    });
  });

  it('a pod sees the kubernetes Service and its own namespace; headless and other namespaces are left out', () => {
    const all = [kubernetes, web, svc('shop', 'headless', 'None'), svc('shop', 'pending', undefined), svc('other', 'db', '10.96.3.3', [{ port: 5432 }])];
    expect(
      servicesForPod(all, 'shop', true)
        .map((s) => s.metadata.name)
        .sort(),
    ).toEqual(['kubernetes', 'web-front']);
    expect(servicesForPod(all, 'shop', false).map((s) => s.metadata.name)).toEqual(['kubernetes']);
  });

  it('env and envFrom win over service variables, and $(VAR) expands against them', async () => {
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'shop', name: 'p' }, spec: { containers: [] } };
    const container: Container = {
      name: 'app',
      image: 'busybox',
      env: [
        { name: 'WEB_FRONT_SERVICE_PORT', value: '8080' },
        { name: 'API_URL', value: 'https://$(KUBERNETES_SERVICE_HOST):$(KUBERNETES_SERVICE_PORT)' },
      ],
    };
    const { envs } = await makeEnvironmentVariables({ pod, container, podIPs: [], hostIPs: [], allocatable: {}, relaxedNames: true, services: [kubernetes, web] });
    const env = new Map(envs.map((e) => [e.key, e.value]));
    expect(env.get('WEB_FRONT_SERVICE_PORT')).toBe('8080');
    expect(env.get('API_URL')).toBe('https://10.96.0.1:443');
    expect(env.get('KUBERNETES_SERVICE_HOST')).toBe('10.96.0.1');
    expect(env.get('KUBERNETES_PORT_443_TCP')).toBe('tcp://10.96.0.1:443');
    expect(env.get('WEB_FRONT_SERVICE_HOST')).toBe('10.96.12.7');
  });
});
