import { describe, expect, it } from 'vitest';
import { corednsObjects } from './coredns-addon.js';
import { podMatchesNodeSelectorAndAffinityTerms, type DaemonSet, type Node } from '@kubelab/api';
import { kubeProxyAddon, npdDaemonSet } from './control-plane-node.js';
import { HOLLOW_NODE_LABEL, hollowComponents, hollowControllerManagerArgs, hollowNodeNames, offHollowNodes } from './hollow.js';
import { networkPolicyAddonObjects } from './network-policy-addon.js';
import { METRICS_SERVER_ARGS, metricsServerObjects } from './metrics-server-addon.js';
import { controlPlanePorts, type Layout } from './topology.js';
import { parseUpArgs } from './up.js';

const layout = (portOffset = 0): Layout => ({ stateDir: '/s', nodes: 0, portOffset, ports: controlPlanePorts(portOffset) });
const arg = (args: string[], name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];

describe('hollowComponents', () => {
  it.each([
    { nodes: 0, workers: [] },
    { nodes: 50, workers: [['hollow-node-1', '1', '50']] },
    { nodes: 500, workers: [['hollow-node-1', '1', '500']] },
    {
      nodes: 501,
      workers: [
        ['hollow-node-1', '1', '251'],
        ['hollow-node-2', '252', '250'],
      ],
    },
    {
      nodes: 1000,
      workers: [
        ['hollow-node-1', '1', '500'],
        ['hollow-node-2', '501', '500'],
      ],
    },
  ])('$nodes nodes run in $workers.length worker processes', ({ nodes, workers }) => {
    expect(hollowComponents(layout(), nodes).map((s) => [s.name, arg(s.args, 'first'), arg(s.args, 'count')])).toEqual(workers);
  });

  it('gives every node one kubelet port and one streaming port, moved by --port-offset', () => {
    const [spec] = hollowComponents(layout(4000), 10);
    expect(spec!.service).toBe('kubemark');
    expect([arg(spec!.args, 'port'), arg(spec!.args, 'stream-server-port'), arg(spec!.args, 'apiserver-grpc-address')]).toEqual(['14250', '14010', '127.0.0.1:10444']);
    expect(arg(spec!.args, 'bootstrap-kubeconfig')).toBe('/s/nodes/bootstrap-kubelet.conf');
  });

  it('labels every hollow node as one (--node-labels), so that the node add-ons keep off them', () => {
    expect(hollowComponents(layout(), 501).map((s) => s.args.filter((a) => a.startsWith('--node-labels=')))).toEqual([
      ['--node-labels=kubelab.io/hollow-node=true'],
      ['--node-labels=kubelab.io/hollow-node=true'],
    ]);
  });

  it('gives every worker a control socket beside the pid files (kubelab hollow stop|start)', () => {
    expect(hollowComponents(layout(), 501).map((s) => arg(s.args, 'control-socket'))).toEqual(['/s/run/hollow-node-1.sock', '/s/run/hollow-node-2.sock']);
  });
});

describe('hollow cluster settings', () => {
  it.each([
    [50, []],
    [255, []],
    [256, ['--node-cidr-mask-size=26']],
    [1000, ['--node-cidr-mask-size=26']],
  ])('%i hollow nodes: controller-manager %j', (nodes, args) => {
    expect(hollowControllerManagerArgs(nodes)).toEqual(args);
  });

  it('names the hollow nodes as the process nodes', () => {
    expect(hollowNodeNames(3)).toEqual(['node-1', 'node-2', 'node-3']);
  });

  it.each([
    [['--nodes', '1000', '--hollow'], { nodes: 1000, hollow: true }],
    [['--hollow', '--nodes=50'], { nodes: 50, hollow: true }],
    [['--nodes', '3'], { nodes: 3, hollow: false }],
  ])('parseUpArgs %j', (argv, want) => {
    const a = parseUpArgs(argv);
    expect({ nodes: a.nodes, hollow: a.hollow }).toEqual(want);
  });

  it.each([
    [['--nodes', '51'], '--nodes must be a whole number from 0 to 50, got "51"'],
    [['--nodes', '1001', '--hollow'], '--nodes must be a whole number from 0 to 1000 with --hollow, got "1001"'],
  ])('parseUpArgs %j refuses', (argv, message) => {
    expect(() => parseUpArgs(argv)).toThrow(message);
  });
});

describe("metrics-server's stand-in pod beside hollow nodes", () => {
  it.each([
    [false, { 'kubernetes.io/os': 'linux' }],
    [true, { 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/control-plane': '' }],
  ])('hollow %s: nodeSelector %j', (hollow, nodeSelector) => {
    const pod = metricsServerObjects(4443, METRICS_SERVER_ARGS, 'local', hollow).deployment.spec!.template.spec!;
    expect(pod.nodeSelector).toEqual(nodeSelector);
    expect(pod.tolerations ?? []).toEqual(hollow ? [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] : []);
  });
});

describe("the node add-ons' DaemonSets beside hollow nodes (kubemark's hollow node runs its own proxy and NPD)", () => {
  const node = (labels: Record<string, string>): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', labels: { 'kubernetes.io/os': 'linux', ...labels } } });
  const hollow = node({ [HOLLOW_NODE_LABEL]: 'true', 'topology.kubernetes.io/zone': 'zone-a' });
  const controlPlane = node({ 'node-role.kubernetes.io/control-plane': '' });
  const runsOn = (ds: DaemonSet, n: Node) => podMatchesNodeSelectorAndAffinityTerms({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: ds.spec!.template.spec! }, n);
  it.each([
    ['kube-proxy', kubeProxyAddon('local').daemonSet],
    ['node-problem-detector', npdDaemonSet('local')],
    ['kube-network-policies', networkPolicyAddonObjects('local').daemonSet],
  ])('%s: on every node as kubeadm applies it; off the hollow nodes in a hollow cluster', (_name, ds) => {
    expect([runsOn(ds, hollow), runsOn(ds, controlPlane)]).toEqual([true, true]);
    const off = offHollowNodes(ds);
    expect([runsOn(off, hollow), runsOn(off, controlPlane)]).toEqual([false, true]);
    // Everything else stays as applied (the NPD's own linux term is kept, the selector and tolerations too).
    expect({ ...off.spec!.template.spec!, affinity: undefined }).toEqual({ ...ds.spec!.template.spec!, affinity: undefined });
    expect(runsOn(off, node({ 'kubernetes.io/os': 'windows' }))).toBe(false);
  });

  it('CoreDNS: off the hollow nodes, where its pods would answer no one; its anti-affinity and control-plane toleration kept', () => {
    const dep = corednsObjects({ serviceCidr: '10.96.0.0/12' }).deployment;
    const off = offHollowNodes(dep);
    const runs = (n: Node) => podMatchesNodeSelectorAndAffinityTerms({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: off.spec!.template.spec! }, n);
    expect([runs(hollow), runs(controlPlane)]).toEqual([false, true]);
    expect(off.spec!.template.spec!.affinity!.podAntiAffinity).toEqual(dep.spec!.template.spec!.affinity!.podAntiAffinity);
    expect(off.spec!.template.spec!.tolerations).toEqual(dep.spec!.template.spec!.tolerations);
  });
});
