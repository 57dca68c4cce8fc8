import { describe, expect, it } from 'vitest';
import { parseAdminKubeconfigArgs, parseInitArgs } from './kubeadm-command.js';

describe('kubelab kubeadm init flags', () => {
  it("maps the compose invocation to kubeadm files: kubelet.conf for init's node, joining nodes marked, kube-proxy.conf each, the endpoint as https URL", () => {
    const o = parseInitArgs([
      '--dir=/etc/kubernetes',
      '--nodes=control-plane',
      '--join-nodes=node-1,node-2',
      '--nodes-dir=/var/lib/kubelab/nodes',
      '--control-plane-endpoint=apiserver:6443',
      '--apiserver-cert-extra-sans=apiserver,127.0.0.1',
      '--etcd-cert-extra-sans=nats',
      '--owner=1000:1000',
    ]);
    expect(o).toEqual({
      dir: '/etc/kubernetes',
      server: 'https://apiserver:6443',
      serviceCidr: '10.96.0.0/12',
      apiserverCertExtraSans: ['apiserver', '127.0.0.1'],
      etcdCertExtraSans: ['nats'],
      nodes: [
        { name: 'control-plane', kubeletConf: '/var/lib/kubelab/nodes/control-plane/kubelet.conf' },
        { name: 'node-1', kubeletConf: '/var/lib/kubelab/nodes/node-1/kubelet.conf', join: true },
        { name: 'node-2', kubeletConf: '/var/lib/kubelab/nodes/node-2/kubelet.conf', join: true },
      ],
      kubeProxyConfs: ['/var/lib/kubelab/nodes/control-plane/kube-proxy.conf', '/var/lib/kubelab/nodes/node-1/kube-proxy.conf', '/var/lib/kubelab/nodes/node-2/kube-proxy.conf'],
      npdConfs: [
        '/var/lib/kubelab/nodes/control-plane/node-problem-detector.conf',
        '/var/lib/kubelab/nodes/node-1/node-problem-detector.conf',
        '/var/lib/kubelab/nodes/node-2/node-problem-detector.conf',
      ],
      metricsServerConfs: ['/etc/kubernetes/metrics-server.conf'],
      dashboardConfs: ['/etc/kubernetes/kubelab-dashboard.conf'],
      netpolConfs: [
        '/var/lib/kubelab/nodes/control-plane/kube-network-policies.conf',
        '/var/lib/kubelab/nodes/node-1/kube-network-policies.conf',
        '/var/lib/kubelab/nodes/node-2/kube-network-policies.conf',
      ],
      owner: { uid: 1000, gid: 1000 },
    });
  });

  it('defaults: /etc/kubernetes, nodes under <dir>/nodes, 127.0.0.1:6443, no owner change', () => {
    const o = parseInitArgs(['--nodes', 'n1']);
    expect(o.server).toBe('https://127.0.0.1:6443');
    expect(o.nodes).toEqual([{ name: 'n1', kubeletConf: '/etc/kubernetes/nodes/n1/kubelet.conf' }]);
    expect(o.owner).toBeUndefined();
  });

  it.each([
    [['--nodes=Node_1'], '--nodes: "Node_1" is not a valid node name (a lowercase RFC 1123 subdomain)'],
    [['--nodes=../etc'], '--nodes: "../etc" is not a valid node name (a lowercase RFC 1123 subdomain)'],
    [['--join-nodes=node_2'], '--join-nodes: "node_2" is not a valid node name (a lowercase RFC 1123 subdomain)'],
    [['--nodes=a,b', '--join-nodes=b'], 'node "b" is in both --nodes and --join-nodes'],
    [['--control-plane-endpoint=https://apiserver:6443'], '--control-plane-endpoint "https://apiserver:6443": want host:port'],
    [['--owner=root'], '--owner "root": want UID:GID (numbers)'],
    [['--dir='], '--dir must not be empty'],
    [['extra'], 'unexpected argument "extra"'],
    [['--bogus'], 'unknown flag: --bogus'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseInitArgs(argv)).toThrow(message);
  });
});

describe('kubelab kubeadm admin-kubeconfig flags', () => {
  it('reads admin.conf by default', () => {
    expect(parseAdminKubeconfigArgs(['--server=https://127.0.0.1:16443', '/out/kubeconfig'])).toEqual({
      from: '/etc/kubernetes/admin.conf',
      server: 'https://127.0.0.1:16443',
      out: '/out/kubeconfig',
      natsUrl: '',
    });
  });

  it('takes the NATS URL the host reaches for the trace files', () => {
    expect(parseAdminKubeconfigArgs(['--server=https://127.0.0.1:6443', '--nats-url=nats://127.0.0.1:4222', '/out/kubeconfig']).natsUrl).toBe('nats://127.0.0.1:4222');
  });

  it.each([
    [['--server=http://127.0.0.1:6443', '/out/k'], '--server "http://127.0.0.1:6443": want https://host:port'],
    [['--server=https://127.0.0.1:6443'], 'want exactly one output path'],
    [['--server=https://127.0.0.1:6443', '--nats-url=127.0.0.1:4222', '/out/k'], '--nats-url "127.0.0.1:4222": want nats://host:port'],
    [['--nats-url=nats://127.0.0.1:4222', '/out/k'], '--nats-url needs --server (cluster.json names both)'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseAdminKubeconfigArgs(argv)).toThrow(message);
  });
});
