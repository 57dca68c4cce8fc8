import { describe, expect, it } from 'vitest';
import { natsServerConfig } from './config.js';
import { containerdNatsIdentity, leafNodeNatsUser, natsUsers } from './identities.js';

const users = natsUsers({ nodes: ['node-1', 'worker.example'] });
const byUser = new Map(users.map((u) => [u.user, u.permissions]));

describe('natsUsers', () => {
  it.each([
    ['the apiserver writes its bucket', 'CN=kube-apiserver-etcd-client', 'publish', '$KV.kubelab.>'],
    ['the apiserver creates its bucket', 'CN=kube-apiserver-etcd-client', 'publish', '$JS.API.STREAM.CREATE.KV_kubelab'],
    ['the apiserver hears its replies', 'CN=kube-apiserver-etcd-client', 'subscribe', '_INBOX.kube-apiserver.>'],
    ["node-1's runtime publishes its records", 'CN=kubelab:containerd:node-1', 'publish', 'kubelab.cri.node-1.*'],
    ['a dotted node name becomes one subject token', 'CN=kubelab:containerd:worker.example', 'publish', 'kubelab.cri.worker_example.*'],
    ['the viewer follows every record', 'CN=kubelab:trace', 'subscribe', 'kubelab.cri.>'],
    ["node-1's runtime publishes its pod address map", 'CN=kubelab:containerd:node-1', 'publish', 'kubelab.net.node-1.pods'],
    ["a runtime reads every node's pod address map", 'CN=kubelab:containerd:node-1', 'subscribe', 'kubelab.net.*.pods'],
    ['the viewer reads the record stream', 'CN=kubelab:trace', 'publish', '$JS.API.CONSUMER.CREATE.KUBELAB_CRI.>'],
    ['the admin uses the JetStream API', 'CN=kubelab:admin', 'publish', '$JS.API.>'],
    ['the scheduler publishes its decision records', 'CN=kubelab:scheduler', 'publish', 'kubelab.sched.>'],
    ['the viewer follows the decision records', 'CN=kubelab:trace', 'subscribe', 'kubelab.sched.>'],
    ["the dashboard asks the nodes' agents", 'CN=kubelab:dashboard', 'publish', 'kubelab.control.*'],
    ['the dashboard follows every record', 'CN=kubelab:dashboard', 'subscribe', 'kubelab.cri.>'],
    ['the dashboard hears its replies', 'CN=kubelab:dashboard', 'subscribe', '_INBOX.kubelab-dashboard.>'],
    ["node-1's agent hears node-1's requests", 'CN=kubelab:node-agent:node-1', 'subscribe', 'kubelab.control.node-1'],
    ["a dotted node's agent: one subject token", 'CN=kubelab:node-agent:worker.example', 'subscribe', 'kubelab.control.worker_example'],
    ["node-1's agent answers the dashboard", 'CN=kubelab:node-agent:node-1', 'publish', '_INBOX.kubelab-dashboard.>'],
    ['the dashboard follows the decision records', 'CN=kubelab:dashboard', 'subscribe', 'kubelab.sched.>'],
    ["node-1's kube-proxy publishes its sync records", 'CN=kubelab:kube-proxy:node-1', 'publish', 'kubelab.proxy.node-1'],
    ['a dotted node name is one token for kube-proxy too', 'CN=kubelab:kube-proxy:worker.example', 'publish', 'kubelab.proxy.worker_example'],
    ["the viewer follows every node's kube-proxy syncs", 'CN=kubelab:trace', 'subscribe', 'kubelab.proxy.>'],
    ["the dashboard follows every node's kube-proxy syncs", 'CN=kubelab:dashboard', 'subscribe', 'kubelab.proxy.>'],
    ['the apiserver hears who reads its records', 'CN=kube-apiserver-etcd-client', 'subscribe', 'kubelab.listen.api'],
    ['the scheduler hears who reads its decisions', 'CN=kubelab:scheduler', 'subscribe', 'kubelab.listen.sched'],
    ['the viewer says it reads the decisions', 'CN=kubelab:trace', 'publish', 'kubelab.listen.sched'],
    ['the dashboard says it reads the writes', 'CN=kubelab:dashboard', 'publish', 'kubelab.listen.api'],
    ['the viewer is asked who reads', 'CN=kubelab:trace', 'subscribe', 'kubelab.listen.*.who'],
  ] as const)('%s', (_name, user, dir, subject) => expect(byUser.get(user)?.[dir]).toContain(subject));

  it.each([
    ["the runtime publishes no other node's records", 'CN=kubelab:containerd:node-1', 'publish', 'kubelab.cri.>'],
    ['the runtime reads no records', 'CN=kubelab:containerd:node-1', 'subscribe', 'kubelab.cri.>'],
    ["the runtime publishes no other node's pod map", 'CN=kubelab:containerd:node-1', 'publish', 'kubelab.net.*.pods'],
    ['the viewer writes no records', 'CN=kubelab:trace', 'publish', 'kubelab.cri.>'],
    ['the viewer creates no streams (one could capture any subject)', 'CN=kubelab:trace', 'publish', '$JS.API.STREAM.CREATE.KUBELAB_CRI'],
    ['the viewer reads no KV', 'CN=kubelab:trace', 'publish', '$JS.API.STREAM.INFO.KV_kubelab'],
    ['the admin writes no keys', 'CN=kubelab:admin', 'publish', '$KV.kubelab.>'],
    ['the scheduler reads no KV', 'CN=kubelab:scheduler', 'publish', '$KV.kubelab.>'],
    ["kube-proxy publishes no other node's syncs", 'CN=kubelab:kube-proxy:node-1', 'publish', 'kubelab.proxy.>'],
    ['kube-proxy publishes no CRI records', 'CN=kubelab:kube-proxy:node-1', 'publish', 'kubelab.cri.node-1.*'],
    ['the runtime publishes no kube-proxy syncs', 'CN=kubelab:containerd:node-1', 'publish', 'kubelab.proxy.node-1'],
    ['the viewer writes no kube-proxy syncs', 'CN=kubelab:trace', 'publish', 'kubelab.proxy.>'],
    ['nobody shares the whole inbox space', 'CN=kube-apiserver-etcd-client', 'subscribe', '_INBOX.>'],
    ['the trace viewer stops nothing', 'CN=kubelab:trace', 'publish', 'kubelab.control.*'],
    ['the admin stops nothing', 'CN=kubelab:admin', 'publish', 'kubelab.control.*'],
    ['a runtime hears no control requests', 'CN=kubelab:containerd:node-1', 'subscribe', 'kubelab.control.node-1'],
    ["node-1's agent hears no other node's requests", 'CN=kubelab:node-agent:node-1', 'subscribe', 'kubelab.control.*'],
    ['an agent sends no requests', 'CN=kubelab:node-agent:node-1', 'publish', 'kubelab.control.node-1'],
    ['the dashboard writes no records', 'CN=kubelab:dashboard', 'publish', 'kubelab.cri.>'],
    ['the dashboard reads no KV', 'CN=kubelab:dashboard', 'publish', '$JS.API.STREAM.INFO.KV_kubelab'],
    ['a runtime cannot turn the records on', 'CN=kubelab:containerd:node-1', 'publish', 'kubelab.listen.api'],
  ] as const)('%s', (_name, user, dir, subject) => expect(byUser.get(user)?.[dir]).not.toContain(subject));

  it('has one runtime user and one agent user per node, then one kube-proxy user per node', () => {
    expect(users.map((u) => u.user)).toEqual([
      'CN=kube-apiserver-etcd-client',
      'CN=kubelab:admin',
      'CN=kubelab:trace',
      'CN=kubelab:scheduler',
      'CN=kubelab:dashboard',
      'CN=kubelab:containerd:node-1',
      'CN=kubelab:node-agent:node-1',
      'CN=kubelab:containerd:worker.example',
      'CN=kubelab:node-agent:worker.example',
      'CN=kubelab:kube-proxy:node-1',
      'CN=kubelab:kube-proxy:worker.example',
    ]);
  });

  it('follows --kv-bucket', () => {
    expect(natsUsers({ bucket: 'other', nodes: [] })[0]!.permissions.publish).toContain('$KV.other.>');
  });

  it('refuses a node name that cannot name a user', () => {
    expect(() => containerdNatsIdentity('a,b')).toThrow(`node name "a,b" cannot name a NATS user`);
  });
});

describe('natsServerConfig', () => {
  const text = natsServerConfig({
    listen: '0.0.0.0:4222',
    monitor: '0.0.0.0:8222',
    storeDir: '/data',
    tls: { certFile: '/pki/etcd/server.crt', keyFile: '/pki/etcd/server.key', caFile: '/pki/etcd/ca.crt' },
    nodes: ['node-1'],
  });

  it('requires and maps client certificates', () => {
    expect(text).toContain(`tls {
  cert_file: "/pki/etcd/server.crt"
  key_file: "/pki/etcd/server.key"
  ca_file: "/pki/etcd/ca.crt"
  verify_and_map: true
  timeout: 5
}`);
  });

  it("allows a runtime its records and the nodes' pod address maps only", () => {
    expect(text).toContain(
      `{ user: "CN=kubelab:containerd:node-1", permissions: { publish: { allow: ["kubelab.cri.node-1.*", "kubelab.net.node-1.pods"] }, subscribe: { allow: ["kubelab.net.*.pods"] } } }`,
    );
  });

  it('allows a kube-proxy its own sync records and no reads', () => {
    expect(text).toContain(`{ user: "CN=kubelab:kube-proxy:node-1", permissions: { publish: { allow: ["kubelab.proxy.node-1"] }, subscribe: { deny: [">"] } } }`);
  });

  it("lets the scheduler answer the readers' announcements on their inboxes, and nothing else", () => {
    expect(text).toContain(
      `{ user: "CN=kubelab:scheduler", permissions: { publish: { allow: ["kubelab.sched.>", "kubelab.listen.sched.who", "_INBOX.kubelab-trace.>", "_INBOX.kubelab-dashboard.>"] }, subscribe: { allow: ["kubelab.listen.sched"] } } }`,
    );
    expect(text).not.toContain('allow_responses');
  });

  it('listens where told, with JetStream and a 2 MB payload', () => {
    expect(text.split('\n').slice(0, 6)).toEqual(['listen: "0.0.0.0:4222"', 'http: "0.0.0.0:8222"', 'max_payload: 2MB', 'jetstream {', '  store_dir: "/data"', '}']);
  });

  it("adds extra users after the cluster's own", () => {
    const withBench = natsServerConfig({
      listen: '127.0.0.1:4222',
      storeDir: '/data',
      tls: { certFile: 'c', keyFile: 'k', caFile: 'ca' },
      nodes: [],
      extraUsers: [{ user: 'CN=bench', permissions: { publish: ['$KV.raw.>'], subscribe: [] } }],
    });
    const users = withBench.split('\n').filter((l) => l.includes('{ user: '));
    expect(users.at(-1)).toBe('    { user: "CN=bench", permissions: { publish: { allow: ["$KV.raw.>"] }, subscribe: { deny: [">"] } } }');
    expect(users).toHaveLength(natsUsers({ nodes: [] }).length + 1);
  });

  it('opens a leafnode port mapping cluster-CA certificates to users, only when asked', () => {
    expect(text).not.toContain('leafnodes');
    const hub = natsServerConfig({
      listen: '127.0.0.1:4222',
      storeDir: '/data',
      tls: { certFile: 'c', keyFile: 'k', caFile: 'etcd-ca' },
      nodes: [],
      leafnodes: { listen: '10.0.0.1:7422', tls: { certFile: 'leaf.crt', keyFile: 'leaf.key', caFile: 'ca.crt' } },
      extraUsers: [leafNodeNatsUser('far-1')],
    });
    expect(hub).toContain(`leafnodes {
  listen: "10.0.0.1:7422"
  tls {
    cert_file: "leaf.crt"
    key_file: "leaf.key"
    ca_file: "ca.crt"
    verify_and_map: true
    timeout: 5
  }
}`);
    expect(hub).toContain(
      `{ user: "CN=system:node:far-1,O=system:nodes", permissions: { publish: { allow: ["kubelab.cri.far-1.*", "kubelab.net.far-1.pods", "kubelab.proxy.far-1", "_INBOX.kubelab-dashboard.>"] }, subscribe: { allow: ["kubelab.net.*.pods", "kubelab.control.far-1"] } } }`,
    );
  });
});
