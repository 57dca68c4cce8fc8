import { describe, expect, it } from 'vitest';
import { natsClusterMemberConfig, natsClusterUrls, natsMembers } from './nats-cluster.js';

const members = natsMembers(3, { client: 4222, monitor: 8222, route: 6222 }, (name) => `/state/nats/${name}`);
const tls = { certFile: '/state/pki/etcd/server.crt', keyFile: '/state/pki/etcd/server.key', caFile: '/state/pki/etcd/ca.crt' };
const routeTls = { certFile: '/state/pki/etcd/peer.crt', keyFile: '/state/pki/etcd/peer.key', caFile: '/state/pki/etcd/ca.crt' };

describe('natsMembers', () => {
  it('gives member i the base ports plus i-1 and a store of its own', () =>
    expect(members).toEqual([
      { name: 'nats-1', client: 4222, monitor: 8222, route: 6222, storeDir: '/state/nats/nats-1' },
      { name: 'nats-2', client: 4223, monitor: 8223, route: 6223, storeDir: '/state/nats/nats-2' },
      { name: 'nats-3', client: 4224, monitor: 8224, route: 6224, storeDir: '/state/nats/nats-3' },
    ]));
  it('lists every client URL, as --etcd-servers lists every member', () => expect(natsClusterUrls(members)).toBe('nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224'));
});

describe('natsClusterMemberConfig', () => {
  const text = natsClusterMemberConfig({ tls, routeTls, nodes: ['control-plane'] }, members[1]!, members);
  const cases: { name: string; line: string }[] = [
    { name: 'names the server (its JetStream RAFT peer name)', line: 'server_name: "nats-2"' },
    { name: 'listens for clients on its own port', line: 'listen: "127.0.0.1:4223"' },
    { name: 'serves /healthz on its own monitor port', line: 'http: "127.0.0.1:8223"' },
    { name: 'keeps JetStream in its own store', line: '  store_dir: "/state/nats/nats-2"' },
    { name: 'keeps the single server client TLS with verify_and_map', line: '  verify_and_map: true' },
    { name: 'joins the cluster by name', line: '  name: "kubelab"' },
    { name: 'listens for routes on its own route port', line: '  listen: "127.0.0.1:6223"' },
    { name: 'routes to the first member', line: '    "nats-route://127.0.0.1:6222"' },
    { name: 'routes to the third member', line: '    "nats-route://127.0.0.1:6224"' },
    { name: 'verifies peers with the etcd peer pair', line: '    cert_file: "/state/pki/etcd/peer.crt"' },
    { name: 'requires a peer certificate of the CA', line: '    verify: true' },
  ];
  for (const c of cases) it(c.name, () => expect(text.split('\n')).toContain(c.line));
  it('has no route to itself', () => expect(text).not.toContain('nats-route://127.0.0.1:6223'));
  it('says how many servers a write needs', () => expect(text.split('\n')[0]).toBe('# Member nats-2 of the 3-server cluster "kubelab": JetStream\'s RAFT groups need a majority (2) to write.'));
});

describe('natsClusterMemberConfig in compose (members by service name)', () => {
  const named = ['nats', 'nats-2', 'nats-3'].map((name) => ({ name, host: name, bind: '0.0.0.0', client: 4222, monitor: 8222, route: 6222, storeDir: '/data' }));
  const lines = natsClusterMemberConfig({ tls, routeTls, nodes: ['node-1'] }, named[0]!, named).split('\n');
  it.each([
    ['listens for clients on every address', 'listen: "0.0.0.0:4222"'],
    ['listens for routes on every address', '  listen: "0.0.0.0:6222"'],
    ['routes to nats-2 by its name', '    "nats-route://nats-2:6222"'],
    ['routes to nats-3 by its name', '    "nats-route://nats-3:6222"'],
  ])('%s', (_what, line) => expect(lines).toContain(line));
  it('has no route to itself', () => expect(lines).not.toContain('    "nats-route://nats:6222"'));
});
