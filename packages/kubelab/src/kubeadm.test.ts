import { describe, expect, it } from 'vitest';
import { certLine, kubeconfigLine, kubernetesServiceIp, splitSans } from './kubeadm.js';

describe('kubeadm init decisions', () => {
  it.each([
    ['10.96.0.0/12', '10.96.0.1'],
    ['10.100.0.0/16', '10.100.0.1'],
    ['172.20.5.7/24', '172.20.5.1'],
  ])('the kubernetes Service IP of %s is %s', (cidr, ip) => {
    expect(kubernetesServiceIp(cidr)).toBe(ip);
  });

  it.each(['10.96.0.0', '10.96.0.0/31', 'fd00::/108', ''])('refuses the service CIDR %j', (cidr) => {
    expect(() => kubernetesServiceIp(cidr)).toThrow(`--service-cidr "${cidr}": not an IPv4 CIDR with room for a Service IP`);
  });

  it('splits extra SANs into DNS names and IPs as kubeadm does', () => {
    expect(splitSans(['apiserver', '127.0.0.1', ' kubernetes ', '::1', ''])).toEqual({ dnsNames: ['apiserver', 'kubernetes'], ips: ['127.0.0.1', '::1'] });
  });

  it("prints kubeadm's lines for generated and existing files", () => {
    expect(certLine('ca', false, true)).toBe('[certs] Generating "ca" certificate and key');
    expect(certLine('ca', true, true)).toBe('[certs] Using existing ca certificate authority');
    expect(certLine('apiserver', true, false)).toBe('[certs] Using existing apiserver certificate and key on disk');
    expect(kubeconfigLine('/etc/kubernetes/admin.conf', false)).toBe('[kubeconfig] Writing "admin.conf" kubeconfig file');
    expect(kubeconfigLine('/etc/kubernetes/admin.conf', true)).toBe('[kubeconfig] Using existing kubeconfig file: "/etc/kubernetes/admin.conf"');
  });
});
