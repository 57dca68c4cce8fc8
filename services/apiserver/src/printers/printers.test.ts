import { describe, expect, it } from 'vitest';
import { printTable } from './index.js';

const now = new Date('2025-06-01T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
const H = 3_600_000;
const meta = (name: string, extra: Record<string, unknown> = {}) => ({ name, namespace: 'default', creationTimestamp: ago(5 * 24 * H + 3 * H), ...extra });
const cells = (kind: string, obj: Record<string, unknown>) => printTable(kind, [obj], { now }).rows[0]!.cells;
const headers = (kind: string) =>
  printTable(kind, [], { now })
    .columnDefinitions.map((c) => (c.priority ? `(${c.name})` : c.name))
    .join(' ');

describe('node rows', () => {
  const node = (labels: Record<string, string>, ready: string | undefined, unschedulable = false) => ({
    kind: 'Node',
    metadata: { name: 'node-1', labels, creationTimestamp: ago(26 * H) },
    spec: unschedulable ? { unschedulable: true } : {},
    status: {
      conditions: ready
        ? [
            { type: 'MemoryPressure', status: 'False' },
            { type: 'Ready', status: ready },
          ]
        : [],
      addresses: [
        { type: 'Hostname', address: 'node-1' },
        { type: 'InternalIP', address: '172.18.0.3' },
      ],
      nodeInfo: { kubeletVersion: 'v1.32.4-kubelab', osImage: 'kubelab (Debian 12)', kernelVersion: '6.1.0', containerRuntimeVersion: 'containerd://1.7.0-kubelab' },
    },
  });
  it.each([
    ['ready, control plane', node({ 'node-role.kubernetes.io/control-plane': '' }, 'True'), ['node-1', 'Ready', 'control-plane', '26h', 'v1.32.4-kubelab']],
    ['not ready, no roles', node({}, 'False'), ['node-1', 'NotReady', '<none>', '26h', 'v1.32.4-kubelab']],
    ['ready condition Unknown prints NotReady', node({}, 'Unknown'), ['node-1', 'NotReady', '<none>', '26h', 'v1.32.4-kubelab']],
    ['no Ready condition yet', node({}, undefined), ['node-1', 'Unknown', '<none>', '26h', 'v1.32.4-kubelab']],
    ['cordoned', node({ 'node-role.kubernetes.io/worker': '', 'kubernetes.io/role': 'infra' }, 'True', true), ['node-1', 'Ready,SchedulingDisabled', 'infra,worker', '26h', 'v1.32.4-kubelab']],
  ])('%s', (_n, obj, want) => {
    expect(cells('Node', obj).slice(0, 5)).toEqual(want);
  });
  it('wide cells', () => {
    expect(cells('Node', node({}, 'True')).slice(5)).toEqual(['172.18.0.3', '<none>', 'kubelab (Debian 12)', '6.1.0', 'containerd://1.7.0-kubelab']);
    expect(headers('Node')).toBe('Name Status Roles Age Version (Internal-IP) (External-IP) (OS-Image) (Kernel-Version) (Container-Runtime)');
  });
});

describe('workload rows', () => {
  const template = {
    spec: {
      containers: [
        { name: 'nginx', image: 'nginx:1.26' },
        { name: 'side', image: 'busybox' },
      ],
    },
  };
  it('deployment', () => {
    const d = {
      metadata: meta('web'),
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] }, template },
      status: { readyReplicas: 2, updatedReplicas: 3, availableReplicas: 2 },
    };
    expect(headers('Deployment')).toBe('Name Ready Up-to-date Available Age (Containers) (Images) (Selector)');
    expect(cells('Deployment', d)).toEqual(['web', '2/3', 3, 2, '5d3h', 'nginx,side', 'nginx:1.26,busybox', 'app=web,tier in (a,b)']);
  });
  it('deployment without status', () => {
    expect(cells('Deployment', { metadata: meta('web'), spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template } }).slice(0, 4)).toEqual(['web', '0/1', 0, 0]);
  });
  it('replicaset', () => {
    const rs = { metadata: meta('web-5d4f'), spec: { replicas: 2, selector: { matchLabels: { app: 'web', 'pod-template-hash': '5d4f' } }, template }, status: { replicas: 2, readyReplicas: 1 } };
    expect(headers('ReplicaSet')).toBe('Name Desired Current Ready Age (Containers) (Images) (Selector)');
    expect(cells('ReplicaSet', rs)).toEqual(['web-5d4f', 2, 2, 1, '5d3h', 'nginx,side', 'nginx:1.26,busybox', 'app=web,pod-template-hash=5d4f']);
  });
  it('daemonset', () => {
    const ds = {
      metadata: meta('kube-proxy'),
      spec: {
        selector: { matchLabels: { 'k8s-app': 'kube-proxy' } },
        template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'kube-proxy', image: 'kubelab/kube-proxy' }] } },
      },
      status: { desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 1, updatedNumberScheduled: 2, numberAvailable: 1 },
    };
    expect(headers('DaemonSet')).toBe('Name Desired Current Ready Up-to-date Available Node Selector Age (Containers) (Images) (Selector)');
    expect(cells('DaemonSet', ds)).toEqual(['kube-proxy', 2, 2, 1, 2, 1, 'kubernetes.io/os=linux', '5d3h', 'kube-proxy', 'kubelab/kube-proxy', 'k8s-app=kube-proxy']);
  });
});

describe('service rows', () => {
  it.each([
    [
      'ClusterIP',
      { type: 'ClusterIP', clusterIP: '10.96.12.7', clusterIPs: ['10.96.12.7'], ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], selector: { app: 'web' } },
      {},
      ['web', 'ClusterIP', '10.96.12.7', '<none>', '80/TCP', '5d3h', 'app=web'],
    ],
    [
      'NodePort',
      {
        type: 'NodePort',
        clusterIP: '10.96.0.9',
        ports: [
          { port: 80, nodePort: 30080, protocol: 'TCP' },
          { port: 53, protocol: 'UDP' },
        ],
      },
      {},
      ['web', 'NodePort', '10.96.0.9', '<none>', '80:30080/TCP,53/UDP', '5d3h', '<none>'],
    ],
    [
      'LoadBalancer pending',
      { type: 'LoadBalancer', clusterIP: '10.96.0.9', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] },
      {},
      ['web', 'LoadBalancer', '10.96.0.9', '<pending>', '80:30080/TCP', '5d3h', '<none>'],
    ],
    [
      'LoadBalancer with ingress',
      { type: 'LoadBalancer', clusterIP: '10.96.0.9', ports: [] },
      { loadBalancer: { ingress: [{ ip: '203.0.113.4' }] } },
      ['web', 'LoadBalancer', '10.96.0.9', '203.0.113.4', '<none>', '5d3h', '<none>'],
    ],
    ['headless', { type: 'ClusterIP', clusterIP: 'None', clusterIPs: ['None'], ports: [{ port: 80, protocol: 'TCP' }] }, {}, ['web', 'ClusterIP', 'None', '<none>', '80/TCP', '5d3h', '<none>']],
    ['ExternalName', { type: 'ExternalName', externalName: 'db.example.com' }, {}, ['web', 'ExternalName', '<none>', 'db.example.com', '<none>', '5d3h', '<none>']],
  ])('%s', (_n, spec, status, want) => {
    expect(cells('Service', { metadata: meta('web'), spec, status })).toEqual(want);
  });
  it('headers', () => {
    expect(headers('Service')).toBe('Name Type Cluster-IP External-IP Port(s) Age (Selector)');
  });
});

describe('endpoints and endpointslices', () => {
  it('endpoints: three addresses then "+ N more..."', () => {
    const subsets = [{ addresses: ['10.244.0.5', '10.244.1.3', '10.244.1.4', '10.244.2.2'].map((ip) => ({ ip })), ports: [{ port: 80, protocol: 'TCP' }] }];
    expect(cells('Endpoints', { metadata: meta('web'), subsets })).toEqual(['web', '10.244.0.5:80,10.244.1.3:80,10.244.1.4:80 + 1 more...', '5d3h']);
    expect(cells('Endpoints', { metadata: meta('web') })).toEqual(['web', '<none>', '5d3h']);
  });
  it('endpointslice', () => {
    const s = { metadata: meta('web-abcde'), addressType: 'IPv4', ports: [{ port: 80, protocol: 'TCP', name: '' }], endpoints: [{ addresses: ['10.244.0.5'] }, { addresses: ['10.244.1.3'] }] };
    expect(headers('EndpointSlice')).toBe('Name AddressType Ports Endpoints Age');
    expect(cells('EndpointSlice', s)).toEqual(['web-abcde', 'IPv4', '80', '10.244.0.5,10.244.1.3', '5d3h']);
    expect(cells('EndpointSlice', { metadata: meta('x'), addressType: 'IPv4', endpoints: null })).toEqual(['x', 'IPv4', '<unset>', '<unset>', '5d3h']);
  });
});

describe('events', () => {
  const ev = {
    metadata: meta('web.17f1a'),
    involvedObject: { kind: 'Pod', name: 'web', namespace: 'default', fieldPath: 'spec.containers{web}' },
    reason: 'Pulled',
    message: 'Successfully pulled image "nginx"\n',
    source: { component: 'kubelet', host: 'node-1' },
    firstTimestamp: ago(10 * 60_000),
    lastTimestamp: ago(2 * 60_000),
    count: 4,
    type: 'Normal',
  };
  it('all cells (the server prints wide)', () => {
    expect(headers('Event')).toBe('Last Seen Type Reason Object (Subobject) (Source) Message (First Seen) (Count) (Name)');
    expect(cells('Event', ev)).toEqual(['2m', 'Normal', 'Pulled', 'pod/web', 'spec.containers{web}', 'kubelet, node-1', 'Successfully pulled image "nginx"', '10m', 4, 'web.17f1a']);
  });
  it('events.k8s.io style: eventTime, series, reporting controller', () => {
    const e2 = {
      metadata: meta('node-1.1'),
      involvedObject: { kind: 'Node', name: 'node-1' },
      reason: 'NodeReady',
      message: 'ok',
      eventTime: ago(30_000),
      series: { count: 7, lastObservedTime: ago(5_000) },
      reportingComponent: 'node-controller',
      type: 'Normal',
    };
    expect(cells('Event', e2)).toEqual(['5s', 'Normal', 'NodeReady', 'node/node-1', '', 'node-controller', 'ok', '30s', 7, 'node-1.1']);
  });
});

describe('small kinds', () => {
  it.each([
    ['ConfigMap', { metadata: meta('kube-proxy'), data: { 'config.conf': 'x', kubeconfig: 'y' }, binaryData: { b: 'AA==' } }, ['kube-proxy', 3, '5d3h'], 'Name Data Age'],
    ['Secret', { metadata: meta('s'), type: 'Opaque', data: { a: 'YQ==' } }, ['s', 'Opaque', 1, '5d3h'], 'Name Type Data Age'],
    ['Namespace', { metadata: meta('kube-system'), status: { phase: 'Active' } }, ['kube-system', 'Active', '5d3h'], 'Name Status Age'],
    ['ServiceAccount', { metadata: meta('default') }, ['default', 0, '5d3h'], 'Name Secrets Age'],
    ['Lease', { metadata: meta('node-1'), spec: { holderIdentity: 'node-1', renewTime: ago(1000) } }, ['node-1', 'node-1', '5d3h'], 'Name Holder Age'],
    ['APIService', { metadata: meta('v1.apps'), spec: { group: 'apps', version: 'v1' } }, ['v1.apps', 'Local', 'Unknown', '5d3h'], 'Name Service Available Age'],
    [
      'APIService',
      {
        metadata: meta('v1beta1.metrics.k8s.io'),
        spec: { service: { namespace: 'kube-system', name: 'metrics-server' } },
        status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] },
      },
      ['v1beta1.metrics.k8s.io', 'kube-system/metrics-server', 'False (MissingEndpoints)', '5d3h'],
      'Name Service Available Age',
    ],
    ['APIService', { metadata: meta('v1.x'), status: { conditions: [{ type: 'Available', status: 'True', reason: 'Passed' }] } }, ['v1.x', 'Local', 'True', '5d3h'], 'Name Service Available Age'],
  ])('%s', (kind, obj, want, hdr) => {
    expect(cells(kind, obj)).toEqual(want);
    expect(headers(kind)).toBe(hdr);
  });
  it('unknown kinds get NAME and CREATED AT', () => {
    expect(cells('Widget', { metadata: meta('w') })).toEqual(['w', ago(5 * 24 * H + 3 * H)]);
  });
});

describe('rbac rows (kubectl get clusterroles / rolebindings [-o wide])', () => {
  it('roles and cluster roles print NAME and CREATED AT, as upstream (no printer of their own)', () => {
    const cr = { metadata: { name: 'view', creationTimestamp: '2025-05-27T09:00:00Z' }, rules: [] };
    expect(cells('ClusterRole', cr)).toEqual(['view', '2025-05-27T09:00:00Z']);
    expect(headers('ClusterRole')).toBe('Name Created At');
    expect(headers('Role')).toBe('Name Created At');
  });
  it.each([
    [
      'RoleBinding',
      {
        metadata: meta('jane-view'),
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [
          { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane' },
          { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'joe' },
          { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
          { kind: 'ServiceAccount', namespace: 'default', name: 'ci' },
          { kind: 'ServiceAccount', name: 'local' },
        ],
      },
      ['jane-view', 'ClusterRole/view', '5d3h', 'jane, joe', 'devs', 'default/ci, /local'],
    ],
    [
      'ClusterRoleBinding',
      { metadata: meta('system:node'), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:node' } },
      ['system:node', 'ClusterRole/system:node', '5d3h', '', '', ''],
    ],
  ])('%s', (kind, obj, want) => {
    expect(cells(kind, obj)).toEqual(want);
    expect(headers(kind)).toBe('Name Role Age (Users) (Groups) (ServiceAccounts)');
  });
});

describe('certificatesigningrequest rows (kubectl get csr)', () => {
  const csr = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
    kind: 'CertificateSigningRequest',
    metadata: { name: 'node-csr-x', creationTimestamp: ago(90_000) },
    spec: { signerName: 'kubernetes.io/kube-apiserver-client-kubelet', username: 'system:bootstrap:abcdef', usages: ['client auth'], request: 'AA==', ...spec },
    ...(status ? { status } : {}),
  });
  const approved = { type: 'Approved', status: 'True' };
  it.each<[string, Record<string, unknown>, unknown[]]>([
    ['pending, no duration', csr({}), ['node-csr-x', '90s', 'kubernetes.io/kube-apiserver-client-kubelet', 'system:bootstrap:abcdef', '<none>', 'Pending']],
    [
      'approved and issued, one day',
      csr({ expirationSeconds: 86400 }, { conditions: [approved], certificate: 'AA==' }),
      ['node-csr-x', '90s', 'kubernetes.io/kube-apiserver-client-kubelet', 'system:bootstrap:abcdef', '24h', 'Approved,Issued'],
    ],
    [
      'approved, signer failed',
      csr({ expirationSeconds: 3600 }, { conditions: [approved, { type: 'Failed', status: 'True' }] }),
      ['node-csr-x', '90s', 'kubernetes.io/kube-apiserver-client-kubelet', 'system:bootstrap:abcdef', '60m', 'Approved,Failed'],
    ],
    ['denied wins', csr({}, { conditions: [{ type: 'Denied', status: 'True' }] }), ['node-csr-x', '90s', 'kubernetes.io/kube-apiserver-client-kubelet', 'system:bootstrap:abcdef', '<none>', 'Denied']],
    ['no signer', csr({ signerName: '' }), ['node-csr-x', '90s', '<none>', 'system:bootstrap:abcdef', '<none>', 'Pending']],
  ])('%s', (_n, obj, want) => {
    expect(cells('CertificateSigningRequest', obj)).toEqual(want);
  });
  it('columns', () => expect(headers('CertificateSigningRequest')).toBe('Name Age SignerName Requestor RequestedDuration Condition'));
});
