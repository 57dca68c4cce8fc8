import { describe, expect, it } from 'vitest';
import {
  clusterInfo,
  components,
  controlPlaneNodePorts,
  controlPlanePorts,
  DEFAULT_PORTS,
  defaultTracingEndpoint,
  natsClientFiles,
  natsConfig,
  nodeNames,
  nodePorts,
  runnerFlags,
} from './topology.js';
import { parseUpArgs, refuseRunnerFlags } from './up.js';

describe('local topology', () => {
  const specs = components({ stateDir: '/s', nodes: 2, portOffset: 0, ports: DEFAULT_PORTS });

  it('starts the control plane first (metrics-server and the dashboard with it), then containerd, kubelet, kube-proxy and the node problem detector per node (control-plane first), named like the compose services', () => {
    expect(specs.map((s) => s.name)).toEqual([
      'nats',
      'apiserver',
      'scheduler',
      'controller-manager',
      'metrics-server',
      'dashboard',
      ...['control-plane', 1, 2].flatMap((i) => [`containerd-${i}`, `kubelet-${i}`, `kube-proxy-${i}`, `node-problem-detector-${i}`, `kube-network-policies-${i}`]),
    ]);
  });

  it("gives the apiserver kubeadm's aggregation-layer flags and metrics-server components.yaml's, on its own port", () => {
    expect(specs.find((s) => s.name === 'apiserver')!.args).toEqual(
      expect.arrayContaining([
        '--proxy-client-cert-file=/s/pki/front-proxy-client.crt',
        '--proxy-client-key-file=/s/pki/front-proxy-client.key',
        '--requestheader-client-ca-file=/s/pki/front-proxy-ca.crt',
        '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-username-headers=X-Remote-User',
      ]),
    );
    expect(specs.find((s) => s.name === 'metrics-server')!.args).toEqual(
      expect.arrayContaining(['--kubeconfig=/s/metrics-server.conf', '--secure-port=4443', '--kubelet-use-node-status-port', '--metric-resolution=15s', '--kubelet-insecure-tls']),
    );
    const nodes = new Set([1, 2, 3].flatMap((i) => Object.values(nodePorts(i))).concat(Object.values(controlPlaneNodePorts(0))));
    expect(nodes.has(DEFAULT_PORTS.metricsServer)).toBe(false);
  });

  it('serves the dashboard on 9090 (shifted by --port-offset) as its ServiceAccount, reading NATS as the trace identity', () => {
    expect(specs.find((s) => s.name === 'dashboard')).toMatchObject({
      args: expect.arrayContaining(['--kubeconfig=/s/kubelab-dashboard.conf', '--port=9090', '--nats-cert-file=/s/pki/etcd/dashboard-client.crt']),
      health: 'http://127.0.0.1:9090/healthz',
    });
    expect(controlPlanePorts(900).dashboard).toBe(9990);
  });

  it('gives node-1 the upstream ports and shifts further nodes by 100', () => {
    expect(nodePorts(1)).toEqual({ kubelet: 10250, kubeletHealthz: 10248, kubeProxyHealthz: 10256, kubeProxyMetrics: 10249, containerdHealth: 10260, npd: 10266, npdMetrics: 10267, netpol: 10290 });
    expect(nodePorts(2).kubelet).toBe(10350);
  });

  it("puts the control-plane node's ports into the gap of the node stride, clear of every worker's and the control plane's", () => {
    expect(controlPlaneNodePorts(0)).toEqual({
      kubelet: 10270,
      kubeletHealthz: 10268,
      kubeProxyHealthz: 10276,
      kubeProxyMetrics: 10269,
      containerdHealth: 10280,
      npd: 10286,
      npdMetrics: 10287,
      netpol: 10310,
    });
    const used = new Set([...Object.values(DEFAULT_PORTS), ...[1, 2, 3].flatMap((i) => Object.values(nodePorts(i)))]);
    for (const p of Object.values(controlPlaneNodePorts(0))) expect(used.has(p), String(p)).toBe(false);
  });

  it("registers the control-plane node as kubeadm init's own: kubelet.conf without bootstrap, the control-plane taint, static pods from its root's /etc/kubernetes/manifests", () => {
    const cp = specs.find((s) => s.name === 'kubelet-control-plane')!;
    expect(cp.args).toEqual(
      expect.arrayContaining([
        '--hostname-override=control-plane',
        '--kubeconfig=/s/nodes/control-plane/kubelet.conf',
        '--register-with-taints=node-role.kubernetes.io/control-plane:NoSchedule',
        '--pod-manifest-path=/s/nodes/control-plane/root/etc/kubernetes/manifests',
        '--port=10270',
      ]),
    );
    expect(cp.args.some((a) => a.startsWith('--bootstrap-kubeconfig'))).toBe(false);
    const worker = specs.find((s) => s.name === 'kubelet-1')!;
    expect(worker.args).toContain('--bootstrap-kubeconfig=/s/nodes/node-1/bootstrap-kubelet.conf');
    expect(worker.args.some((a) => a.startsWith('--register-with-taints'))).toBe(false);
    expect(nodeNames({ nodes: 2 })).toEqual(['control-plane', 'node-1', 'node-2']);
  });

  it('never lets a local kube-proxy apply rules: every node shares the host network namespace', () => {
    for (const s of specs.filter((s) => s.service === 'kube-proxy')) expect(s.args).toContain('--apply=never');
  });

  it("points each node's policy agent at the node's socket-LB directory, beside kube-proxy's and containerd's, where NetworkPolicy is enforced at connect", () => {
    for (const suffix of ['control-plane', '2']) {
      const dirs = ['containerd', 'kube-proxy', 'kube-network-policies'].map((svc) =>
        specs.find((s) => s.service === svc && s.name.endsWith(`-${suffix}`))?.args.find((a) => a.startsWith('--socket-lb-dir=')),
      );
      expect(dirs[0]).toBeDefined();
      expect(new Set(dirs).size).toBe(1);
    }
    for (const s of specs.filter((s) => s.service === 'kube-network-policies')) expect(s.args).toContain('--apply=never');
  });

  it("gives the apiserver the state dir's encryption and authentication configs: Secrets encrypted at rest, anonymous only on health paths", () => {
    expect(specs.find((s) => s.name === 'apiserver')!.args).toContain('--encryption-provider-config=/s/encryption-config.yaml');
    expect(specs.find((s) => s.name === 'apiserver')!.args).toContain('--authentication-config=/s/authentication-config.yaml');
  });

  it("wires the kubelet API's TLS as kubeadm: the apiserver presents apiserver-kubelet-client, kubelets trust the cluster CA", () => {
    expect(specs.find((s) => s.name === 'apiserver')!.args).toEqual(
      expect.arrayContaining(['--kubelet-client-certificate=/s/pki/apiserver-kubelet-client.crt', '--kubelet-client-key=/s/pki/apiserver-kubelet-client.key']),
    );
    for (const s of specs.filter((s) => s.service === 'kubelet')) expect(s.args).toContain('--client-ca-file=/s/pki/ca.crt');
  });

  it("serves the scheduler's and controller-manager's ports as kubeadm: HTTPS on the loopback, reviews with their own kubeconfig, polled without verifying the self-signed certificate", () => {
    const scheduler = specs.find((s) => s.name === 'scheduler')!;
    expect(scheduler.args).toEqual(
      expect.arrayContaining(['--authentication-kubeconfig=/s/scheduler.conf', '--authorization-kubeconfig=/s/scheduler.conf', '--bind-address=127.0.0.1', '--secure-port=10259']),
    );
    expect(scheduler).toMatchObject({ health: 'https://127.0.0.1:10259/healthz', insecureHealth: true });
    const cm = specs.find((s) => s.name === 'controller-manager')!;
    expect(cm.args).toEqual(expect.arrayContaining(['--authentication-kubeconfig=/s/controller-manager.conf', '--authorization-kubeconfig=/s/controller-manager.conf']));
    expect(cm).toMatchObject({ health: 'https://127.0.0.1:10257/healthz', insecureHealth: true });
    // The apiserver's serving certificate is checked against the cluster CA.
    expect(specs.find((s) => s.name === 'apiserver')!.insecureHealth).toBeUndefined();
  });

  it('gives the controller-manager the cluster CA to sign CSRs with, and kubelets rotate their client certificates', () => {
    expect(specs.find((s) => s.name === 'controller-manager')!.args).toEqual(expect.arrayContaining(['--cluster-signing-cert-file=/s/pki/ca.crt', '--cluster-signing-key-file=/s/pki/ca.key']));
    expect(specs.find((s) => s.name === 'kubelet-1')!.args).toContain('--rotate-certificates');
    expect(specs.find((s) => s.name === 'kubelet-1')!.args).toEqual(expect.arrayContaining(['--cluster-dns=10.96.0.10', '--cluster-domain=cluster.local']));
  });

  it("connects the apiserver to NATS as kubeadm's apiserver-etcd-client", () => {
    expect(specs.find((s) => s.name === 'apiserver')!.args).toEqual(
      expect.arrayContaining(['--etcd-cafile=/s/pki/etcd/ca.crt', '--etcd-certfile=/s/pki/apiserver-etcd-client.crt', '--etcd-keyfile=/s/pki/apiserver-etcd-client.key']),
    );
  });

  it("gives each node's runtime its own NATS certificate", () => {
    expect(specs.find((s) => s.name === 'containerd-2')!.args).toEqual(
      expect.arrayContaining([
        '--nats-ca-file=/s/pki/etcd/ca.crt',
        '--nats-cert-file=/s/nodes/node-2/pki/containerd-nats-client.crt',
        '--nats-key-file=/s/nodes/node-2/pki/containerd-nats-client.key',
      ]),
    );
    expect(natsClientFiles('/s', 'trace')).toEqual({ caFile: '/s/pki/etcd/ca.crt', certFile: '/s/pki/etcd/trace-client.crt', keyFile: '/s/pki/etcd/trace-client.key' });
    expect(natsClientFiles('/s', 'dashboard').certFile).toBe('/s/pki/etcd/dashboard-client.crt');
    expect(natsClientFiles('/s', { agent: 'node-2' })).toEqual({
      caFile: '/s/pki/etcd/ca.crt',
      certFile: '/s/nodes/node-2/pki/node-agent-nats-client.crt',
      keyFile: '/s/nodes/node-2/pki/node-agent-nats-client.key',
    });
  });

  it("gives each node's kube-proxy its own NATS certificate for its sync records", () => {
    expect(specs.find((s) => s.name === 'kube-proxy-2')!.args).toEqual(
      expect.arrayContaining([
        '--nats-url=nats://127.0.0.1:4222',
        '--nats-ca-file=/s/pki/etcd/ca.crt',
        '--nats-cert-file=/s/nodes/node-2/pki/kube-proxy-nats-client.crt',
        '--nats-key-file=/s/nodes/node-2/pki/kube-proxy-nats-client.key',
      ]),
    );
  });

  it("serves NATS with the etcd server certificate and a user per node's runtime", () => {
    const conf = natsConfig({ stateDir: '/s', nodes: 2, portOffset: 0, ports: DEFAULT_PORTS });
    expect(conf).toContain('listen: "127.0.0.1:4222"');
    expect(conf).toContain('cert_file: "/s/pki/etcd/server.crt"');
    expect(conf).toContain('ca_file: "/s/pki/etcd/ca.crt"');
    expect(conf.match(/user: "CN=kubelab:containerd:node-\d"/g)).toEqual(['user: "CN=kubelab:containerd:node-1"', 'user: "CN=kubelab:containerd:node-2"']);
  });

  it("points every node component at its own CRI socket, at the kubeadm node's path under the node root", () => {
    const kubelet2 = specs.find((s) => s.name === 'kubelet-2')!;
    const containerd2 = specs.find((s) => s.name === 'containerd-2')!;
    expect(kubelet2.args).toContain('--container-runtime-endpoint=unix:///s/nodes/node-2/root/run/containerd/containerd.sock');
    expect(containerd2.args).toContain('--address=/s/nodes/node-2/root/run/containerd/containerd.sock');
  });

  it("runs the node problem detector as its DaemonSet would: the node's name, its ServiceAccount's identity, the default monitors, this node's kubelet healthz", () => {
    const npd2 = specs.find((s) => s.name === 'node-problem-detector-2')!;
    expect(npd2.unit).toEqual({ node: 'node-2', root: '/s/nodes/node-2/root', name: 'node-problem-detector' });
    expect(npd2.args).toEqual(expect.arrayContaining(['--hostname-override=node-2', '--kubeconfig=/s/node-problem-detector.conf', '--port=10366', '--prometheus-port=10367']));
    expect(npd2.args.find((a) => a.startsWith('--config.system-log-monitor='))).toMatch(/node-problem-detector\/config\/kernel-monitor\.json,.*readonly-monitor\.json,.*systemd-monitor\.json$/);
    expect(npd2.env).toEqual({ HOST_ADDRESS: '127.0.0.1', KUBELET_PORT: '10348' });
  });

  it("moves every port by --port-offset, the nodes' included, and records where the cluster listens", () => {
    const layout = { stateDir: '/s', nodes: 2, portOffset: 10000, ports: controlPlanePorts(10000) };
    const moved = components(layout);
    expect(moved.find((s) => s.name === 'apiserver')!.args).toEqual(expect.arrayContaining(['--secure-port=16443', '--grpc-port=16444', '--nats-url=nats://127.0.0.1:14222']));
    expect(moved.find((s) => s.name === 'apiserver')!.health).toBe('https://127.0.0.1:16443/readyz');
    expect(moved.find((s) => s.name === 'kubelet-2')!.args).toEqual(expect.arrayContaining(['--port=20350', '--apiserver-grpc-address=127.0.0.1:16444']));
    expect(nodePorts(2, 10000).kubeProxyMetrics).toBe(20349);
    expect(clusterInfo(layout)).toEqual({ natsUrl: 'nats://127.0.0.1:14222', server: 'https://127.0.0.1:16443', portOffset: 10000 });
  });

  it('parses --port-offset and refuses one that would push a port past 65535', () => {
    expect(parseUpArgs(['--port-offset', '20000', '--time-scale=10']).portOffset).toBe(20000);
    expect(parseUpArgs(['--time-scale=10']).portOffset).toBe(0);
    expect(() => parseUpArgs(['--port-offset=60000'])).toThrow('--port-offset must be a whole number from 0 to 50375, got "60000"');
  });

  it('refuses a flag the runner sets itself (a port, address or path) and says what to use instead', () => {
    const owned = runnerFlags(specs);
    expect(() => refuseRunnerFlags(new Map([['apiserver', ['--secure-port=16443']]]), owned)).toThrow(
      '--secure-port is set by kubelab up itself (the ports, addresses and paths of the local cluster); use --port-offset N to move every port, --state-dir DIR for the paths',
    );
    expect(() => refuseRunnerFlags(new Map([['kubelet', ['--root-dir=/x']]]), owned)).toThrow('--root-dir is set by kubelab up itself');
    // Upstream flags the runner leaves alone pass.
    expect(() =>
      refuseRunnerFlags(
        new Map([
          ['controller-manager', ['--node-monitor-grace-period=8s']],
          ['kubelet', ['--time-scale=10']],
        ]),
        owned,
      ),
    ).not.toThrow();
  });
});

describe('where the components export traces under kubelab up', () => {
  const ports = controlPlanePorts(100);
  it.each<[string, string[], NodeJS.ProcessEnv, string | undefined]>([
    ['tracing on (a sampling rate), no endpoint: the dashboard', ['--tracing-sampling-rate-per-million=1000000'], {}, '127.0.0.1:9417'],
    ['tracing on, the flag and its value apart', ['--v', '3', '--tracing-sampling-rate-per-million', '1000000'], {}, '127.0.0.1:9417'],
    ['an endpoint of their own (Jaeger): left as given', ['--tracing-sampling-rate-per-million=1000000', '--tracing-endpoint=127.0.0.1:4317'], {}, undefined],
    ['an endpoint in the environment: left as given', ['--tracing-sampling-rate-per-million=1000000'], { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4317' }, undefined],
    ['tracing off (no rate)', ['--v=3'], {}, undefined],
  ])('%s', (_name, args, env, endpoint) => {
    const out = defaultTracingEndpoint(args, ports, env);
    expect(out.endpoint).toBe(endpoint);
    expect(out.args).toEqual(endpoint ? [...args, `--tracing-endpoint=${endpoint}`] : args);
  });

  it("runs the dashboard's OTLP/gRPC receiver on 9317, shifted by --port-offset", () => {
    expect(components({ stateDir: '/s', nodes: 1, portOffset: 100, ports }).find((s) => s.name === 'dashboard')!.args).toContain('--otlp-grpc-port=9417');
  });
});
