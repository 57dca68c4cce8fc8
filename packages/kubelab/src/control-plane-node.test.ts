import { describe, expect, it } from 'vitest';
import { composeStaticPods, kubeProxyAddon, localStaticPods, manifestLine, npdDaemonSet, NPD_IMAGE } from './control-plane-node.js';
import { parseControlPlaneArgs } from './kubeadm-control-plane.js';
import { components, controlPlanePorts, type Layout } from './topology.js';

describe("the local runner's control-plane node", () => {
  const layout: Layout = { stateDir: '/s', nodes: 1, portOffset: 500, ports: controlPlanePorts(500) };
  const pods = localStaticPods(layout, components(layout));
  const byName = Object.fromEntries(pods.map((p) => [p.metadata!.name!, p]));

  it("writes kubeadm's four static pods, hostNetwork and system-node-critical, labelled component and tier", () => {
    expect(pods.map((p) => p.metadata!.name)).toEqual(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']);
    for (const p of pods) {
      expect(p.metadata).toMatchObject({ namespace: 'kube-system', labels: { component: p.metadata!.name, tier: 'control-plane' } });
      expect(p.spec).toMatchObject({ hostNetwork: true, priorityClassName: 'system-node-critical' });
    }
  });

  it('points every probe at the real process on 127.0.0.1 at its --port-offset port', () => {
    const probe = (name: string, kind: 'startupProbe' | 'livenessProbe' | 'readinessProbe') => byName[name]!.spec!.containers[0]![kind]?.httpGet;
    expect(probe('etcd', 'livenessProbe')).toEqual({ host: '127.0.0.1', path: '/healthz', port: 8722, scheme: 'HTTP' });
    expect(probe('kube-apiserver', 'startupProbe')).toEqual({ host: '127.0.0.1', path: '/livez', port: 6943, scheme: 'HTTPS' });
    expect(probe('kube-apiserver', 'readinessProbe')).toEqual({ host: '127.0.0.1', path: '/readyz', port: 6943, scheme: 'HTTPS' });
    expect(probe('kube-controller-manager', 'livenessProbe')).toEqual({ host: '127.0.0.1', path: '/healthz', port: 10757, scheme: 'HTTPS' });
    expect(probe('kube-scheduler', 'livenessProbe')).toEqual({ host: '127.0.0.1', path: '/healthz', port: 10759, scheme: 'HTTPS' });
    expect(probe('kube-scheduler', 'readinessProbe')).toBeUndefined();
  });

  it("gives each stand-in the runner's own command line and the process it stands for", () => {
    const c = byName['kube-apiserver']!.spec!.containers[0]!;
    expect(c.image).toBe('registry.k8s.io/kube-apiserver:v1.32.0');
    expect(c.command![0]).toBe('kube-apiserver');
    expect(c.command).toContain('--secure-port=6943');
    expect(c.env).toEqual([{ name: 'KUBELAB_COMPONENT_PROCESS', value: 'apiserver' }]);
    expect(byName.etcd!.spec!.containers[0]!.command).toEqual(['nats-server', '-c', '/s/nats.conf']);
  });

  it("prints kubeadm's lines per manifest", () => {
    expect(manifestLine('etcd', '/m')).toBe('[etcd] Creating static Pod manifest for local etcd in "/m"');
    expect(manifestLine('kube-scheduler', '/m')).toBe('[control-plane] Creating static Pod manifest for "kube-scheduler"');
  });

  it("installs kube-proxy on every node, the tainted control-plane's too, as kubeadm's addon", () => {
    const { daemonSet } = kubeProxyAddon('local');
    expect(daemonSet.metadata).toMatchObject({ name: 'kube-proxy', namespace: 'kube-system', labels: { 'k8s-app': 'kube-proxy' } });
    expect(daemonSet.spec!.template.spec!.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(daemonSet.spec!.template.spec!.containers[0]!.image).toBe('registry.k8s.io/kube-proxy:v1.32.0');
  });

  it("installs the Node Problem Detector in the shape of upstream's manifest, system-node-critical, tolerating NoSchedule and NoExecute taints", () => {
    const ds = npdDaemonSet('local');
    expect(NPD_IMAGE).toBe('registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.25');
    expect(ds.metadata).toMatchObject({ name: 'node-problem-detector', namespace: 'kube-system', labels: { app: 'node-problem-detector' } });
    const spec = ds.spec!.template.spec!;
    expect(spec.serviceAccountName).toBe('node-problem-detector');
    expect(spec.priorityClassName).toBe('system-node-critical');
    expect(spec.tolerations).toEqual([
      { effect: 'NoSchedule', operator: 'Exists' },
      { effect: 'NoExecute', operator: 'Exists' },
    ]);
    expect(spec.containers[0]!.resources).toEqual({ limits: { cpu: '10m', memory: '80Mi' }, requests: { cpu: '10m', memory: '80Mi' } });
  });
});

describe("the compose stack's control-plane node", () => {
  it('probes each static pod at its compose service by name, with the flags the service gets', () => {
    const pods = composeStaticPods();
    expect(pods.map((p) => [p.metadata!.name, p.spec!.containers[0]!.livenessProbe!.httpGet!.host, p.spec!.containers[0]!.livenessProbe!.httpGet!.port])).toEqual([
      ['etcd', 'nats', 8222],
      ['kube-apiserver', 'apiserver', 6443],
      ['kube-controller-manager', 'controller-manager', 10257],
      ['kube-scheduler', 'scheduler', 10259],
    ]);
    expect(pods[1]!.spec!.containers[0]!.env).toEqual([{ name: 'KUBELAB_COMPONENT_SERVICE', value: 'apiserver' }]);
    expect(pods[1]!.spec!.containers[0]!.command).toContain('--authorization-mode=Node,RBAC');
  });

  it("probes kube-proxy on each node's :10256 (a network namespace per node) and mounts its ConfigMap; the stand-ins name no unit", () => {
    const c = kubeProxyAddon('compose').daemonSet.spec!.template.spec!.containers[0]!;
    expect(c.livenessProbe).toEqual({ httpGet: { path: '/healthz', port: 10256, scheme: 'HTTP' }, initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 3 });
    expect(c.env!.map((e) => e.name)).toEqual(['NODE_NAME']);
    expect(kubeProxyAddon('local').daemonSet.spec!.template.spec!.containers[0]!.livenessProbe).toBeUndefined();
    expect(npdDaemonSet('compose').spec!.template.spec!.containers[0]!.env!.map((e) => e.name)).toEqual(['NODE_NAME']);
  });
});

describe('kubelab kubeadm control-plane', () => {
  it("defaults to the compose stack's paths and addresses", () => {
    expect(parseControlPlaneArgs([])).toEqual({
      kubeconfig: '/etc/kubernetes/admin.conf',
      grpcAddress: 'apiserver:6444',
      manifestDir: '/etc/kubernetes/manifests',
      nodeName: 'control-plane',
      bootstrapTokenFile: '/etc/kubernetes/bootstrap-token.json',
      kubeletCertDir: '/var/lib/kubelet/pki',
      timeoutMs: 240_000,
    });
    expect(parseControlPlaneArgs(['--timeout=90s', '--node-name=cp']).timeoutMs).toBe(90_000);
    expect(parseControlPlaneArgs(['--kubelet-kubeconfig=/n/kubelet.conf']).kubeletKubeconfig).toBe('/n/kubelet.conf');
  });

  it.each([
    [['--apiserver-grpc-address=apiserver'], '--apiserver-grpc-address "apiserver": want host:port'],
    [['--timeout=soon'], '--timeout "soon": want a duration such as 90s or 4m'],
    [['extra'], 'unexpected argument "extra"'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseControlPlaneArgs(argv)).toThrow(message);
  });
});
