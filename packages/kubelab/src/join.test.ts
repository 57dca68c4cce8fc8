import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusterAddresses, joinComponents, leafNatsConfig, parseJoinArgs, splitHostPort } from './join.js';
import { JOINED_DAEMONSET_UNITS } from './join-serviceaccount.js';
import { nodePorts, npdMonitorArgs } from './topology.js';

const PIN = `sha256:${'ab'.repeat(32)}`;

describe('kubelab join', () => {
  it('takes kubeadm join flags', () => {
    const a = parseJoinArgs(['10.0.0.1:6443', '--token', 'abcdef.0123456789abcdef', '--discovery-token-ca-cert-hash', PIN, '--node-name', 'Far-1', '--state-dir=/tmp/x', '--discovery-timeout', '30s']);
    expect(a).toMatchObject({ endpoint: '10.0.0.1:6443', token: 'abcdef.0123456789abcdef', caCertHashes: [PIN], nodeName: 'far-1', stateDir: '/tmp/x', discoveryTimeoutMs: 30_000, portOffset: 0 });
  });

  it.each([
    [[], 'discovery: Invalid value: "": bootstrapToken or file must be set'],
    [['10.0.0.1'], 'discovery.bootstrapToken.apiServerEndpoint: Invalid value: "10.0.0.1": address 10.0.0.1: missing port in address'],
    [['10.0.0.1:6443', '--discovery-token-ca-cert-hash', PIN], 'discovery.bootstrapToken.token: Invalid value: "": the bootstrap token is invalid'],
    [['10.0.0.1:6443', '--token', 'abcdef.0123456789abcdef'], 'using token-based discovery without caCertHashes can be unsafe'],
    [['10.0.0.1:6443', '--token', 't', '--discovery-token-ca-cert-hash', PIN, '--node-name', 'a_b'], 'nodeRegistration.name: Invalid value: "a_b"'],
    [['10.0.0.1:6443', '--tokn', 't'], 'unknown flag: --tokn'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseJoinArgs(argv)).toThrow(message);
  });

  it.each([
    ['10.0.0.1:6443', { host: '10.0.0.1', port: 6443 }],
    ['[fd00::1]:6443', { host: 'fd00::1', port: 6443 }],
    ['cp.example:443', { host: 'cp.example', port: 443 }],
  ])('splits %s', (endpoint, want) => expect(splitHostPort(endpoint)).toEqual(want));

  it.each([
    ['the defaults', 6443, {}, { grpc: '10.0.0.1:6444', leafnode: '10.0.0.1:7422' }],
    ["a cluster's --port-offset", 11443, {}, { grpc: '10.0.0.1:11444', leafnode: '10.0.0.1:12422' }],
    ['addresses given', 6443, { apiserverGrpcAddress: 'lb:7000', natsLeafnodeAddress: 'nats:7422' }, { grpc: 'lb:7000', leafnode: 'nats:7422' }],
  ])("dials the cluster's ports with %s", (_n, port, given, want) => expect(clusterAddresses('10.0.0.1', port, given)).toEqual(want));

  it("runs the kubelet with the bootstrap kubeconfig against the cluster's gRPC port, the runtime's records to the local leaf", () => {
    const a = parseJoinArgs(['10.0.0.1:6443', '--token', 'abcdef.0123456789abcdef', '--discovery-token-ca-cert-hash', PIN, '--node-name', 'far-1', '--state-dir', '/n']);
    const c = joinComponents(a, { grpc: '10.0.0.1:6444' }, '10.0.0.2');
    expect(c.kubelet.args).toEqual(
      expect.arrayContaining(['--apiserver-grpc-address=10.0.0.1:6444', '--bootstrap-kubeconfig=/n/bootstrap-kubelet.conf', '--kubeconfig=/n/kubelet.conf', '--node-ip=10.0.0.2']),
    );
    expect(c.containerd.args).toContain('--nats-url=nats://127.0.0.1:4222');
  });

  it.each([
    [0, { port: 10266, metrics: 10267, kubeletHealthz: 10248 }],
    [1000, { port: 11266, metrics: 11267, kubeletHealthz: 11248 }],
  ])("runs the Node Problem Detector as the node's unit with --port-offset %i: kubelab up's monitors, the ServiceAccount's kubeconfig", (offset, want) => {
    const a = parseJoinArgs([
      '10.0.0.1:6443',
      '--token',
      'abcdef.0123456789abcdef',
      '--discovery-token-ca-cert-hash',
      PIN,
      '--node-name',
      'far-1',
      '--state-dir',
      '/n',
      '--port-offset',
      String(offset),
    ]);
    const npd = joinComponents(a, { grpc: '10.0.0.1:6444' }, '10.0.0.2').daemonSets['node-problem-detector'];
    expect(npd).toMatchObject({ name: 'node-problem-detector', service: 'node-problem-detector', unit: { node: 'far-1', root: '/n/root', name: 'node-problem-detector' } });
    expect(npd.args).toEqual([
      '--hostname-override=far-1',
      '--apiserver-grpc-address=10.0.0.1:6444',
      '--kubeconfig=/n/root/var/lib/node-problem-detector/kubeconfig.conf',
      ...npdMonitorArgs(),
      '--address=127.0.0.1',
      `--port=${want.port}`,
      '--prometheus-address=127.0.0.1',
      `--prometheus-port=${want.metrics}`,
    ]);
    // Upstream's DaemonSet monitors (the kernel log, read-only remounts, systemd's journal) and kubelab up's custom plugins.
    const monitors = (flag: string) =>
      npd.args
        .find((x) => x.startsWith(`${flag}=`))!
        .slice(flag.length + 1)
        .split(',')
        .map((f) => basename(f));
    expect(monitors('--config.system-log-monitor')).toEqual(['kernel-monitor.json', 'readonly-monitor.json', 'systemd-monitor.json']);
    expect(monitors('--config.custom-plugin-monitor')).toEqual(['systemd-monitor-counter.json', 'health-checker-kubelet.json', 'health-checker-containerd.json']);
    expect(npd.env).toEqual({ HOST_ADDRESS: '127.0.0.1', KUBELET_PORT: String(want.kubeletHealthz) });
    expect(npd.health).toBe(`http://127.0.0.1:${want.port}/healthz`);
  });

  it.each([
    [0, 10290],
    [1000, 11290],
  ])("runs kube-network-policies as the node's unit with --port-offset %i: the ServiceAccount's kubeconfig, the node's netpol port, rules applied here", (offset, port) => {
    const a = parseJoinArgs([
      '10.0.0.1:6443',
      '--token',
      'abcdef.0123456789abcdef',
      '--discovery-token-ca-cert-hash',
      PIN,
      '--node-name',
      'far-1',
      '--state-dir',
      '/n',
      '--port-offset',
      String(offset),
    ]);
    const netpol = joinComponents(a, { grpc: '10.0.0.1:6444' }, '10.0.0.2').daemonSets['kube-network-policies'];
    expect(netpol).toEqual({
      name: 'kube-network-policies',
      service: 'kube-network-policies',
      args: [
        '--hostname-override=far-1',
        '--apiserver-grpc-address=10.0.0.1:6444',
        '--kubeconfig=/n/root/var/lib/kube-network-policies/kubeconfig.conf',
        '--apply=never',
        '--socket-lb-dir=/n/root/run/kubelab/socket-lb',
        `--metrics-bind-address=127.0.0.1:${port}`,
      ],
      health: `http://127.0.0.1:${port}/healthz`,
      unit: { node: 'far-1', root: '/n/root', name: 'kube-network-policies' },
    });
    expect(port).toBe(nodePorts(1, offset).netpol);
  });

  it('has a spec for every DaemonSet unit, each its own unit and service', () => {
    const a = parseJoinArgs(['10.0.0.1:6443', '--token', 'abcdef.0123456789abcdef', '--discovery-token-ca-cert-hash', PIN, '--node-name', 'far-1', '--state-dir', '/n']);
    const { daemonSets } = joinComponents(a, { grpc: '10.0.0.1:6444' }, '10.0.0.2');
    expect(JOINED_DAEMONSET_UNITS.map((du) => [daemonSets[du.unit].service, daemonSets[du.unit].unit?.name])).toEqual([
      ['kube-proxy', 'kube-proxy'],
      ['node-problem-detector', 'node-problem-detector'],
      ['kube-network-policies', 'kube-network-policies'],
    ]);
  });

  it('writes a leaf nats-server config with the kubelet certificate as credential', () => {
    expect(leafNatsConfig({ listen: '127.0.0.1:4222', monitor: '127.0.0.1:8222', remote: '10.0.0.1:7422', clientPem: '/n/c.pem', caFile: '/n/ca.crt' })).toBe(`listen: "127.0.0.1:4222"
http: "127.0.0.1:8222"
# The cluster's NATS maps this certificate (CN=system:node:<node>, O=system:nodes) to the node's user.
leafnodes {
  remotes: [
    { url: "tls://10.0.0.1:7422", tls: { cert_file: "/n/c.pem", key_file: "/n/c.pem", ca_file: "/n/ca.crt", timeout: 5 } }
  ]
}
`);
  });
});
