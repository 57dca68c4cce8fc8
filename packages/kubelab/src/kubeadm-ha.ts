// `kubelab kubeadm ha DIR`: the compose `ha` profile's step that `kubelab up
// --ha` does in-process (ha.ts): haproxy's configuration in front of the
// apiservers (the same haproxyConfig, bound on every address of its
// container, the apiservers by service name), then the object store's
// bucket at replicas 3 on the NATS cluster, as DIR's NATS admin, before the
// apiservers depend on it (one an apiserver made first at fewer replicas is
// raised to 3).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FlagError, FlagSet } from '@kubelab/component-base';
import { readNatsTls } from '@kubelab/nats';
import { ensureReplicatedBucketAt, HA_REPLICAS, HAPROXY_MONITOR_PORT } from './ha.js';
import { haproxyConfig, type Backend } from './haproxy.js';
import { DEFAULT_PORTS, natsClientFiles } from './topology.js';

export const KUBEADM_HA_USAGE = `  ha DIR --apiservers apiserver,apiserver-2,apiserver-3 --haproxy-config PATH --nats-url URL,URL,URL [--timeout 5m]
          The ha profile's load balancer and store: haproxy.cfg for the apiservers (their 6443 and 6444), then the
          object store's bucket at replicas ${HA_REPLICAS} on the NATS cluster, as DIR's NATS admin (waits for a JetStream leader)
`;

const flags = () =>
  new FlagSet('kubelab kubeadm ha DIR')
    .stringArray('apiservers', [], 'the apiservers behind the balancer, each a host it reaches (comma list)')
    .string('haproxy-config', '/etc/haproxy/haproxy.cfg', 'where haproxy.cfg goes')
    .string('nats-url', `nats://127.0.0.1:${DEFAULT_PORTS.nats}`, "the NATS cluster's client URLs (comma list)")
    .duration('timeout', 300_000, 'how long to wait for the NATS cluster to elect a JetStream leader');

export interface KubeadmHaArgs {
  dir: string;
  apiservers: string[];
  haproxyConfig: string;
  natsUrl: string;
  timeoutMs: number;
}

export function parseKubeadmHaArgs(argv: string[]): KubeadmHaArgs {
  const { values, rest } = flags().parse(argv, {});
  if (rest.length !== 1) throw new FlagError(`usage: kubelab kubeadm ha DIR --apiservers A,B,C --haproxy-config PATH --nats-url URLS`);
  const apiservers = values.apiservers.map((a) => a.trim()).filter(Boolean);
  if (apiservers.length === 0) throw new FlagError('--apiservers: name at least one apiserver');
  for (const a of apiservers) if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(a)) throw new FlagError(`--apiservers: "${a}" is not a host name`);
  if (!values['nats-url'].split(',').every((u) => /^(nats|tls):\/\/[^/\s]+$/.test(u))) throw new FlagError(`--nats-url "${values['nats-url']}": want nats://host:port[,nats://host:port…]`);
  return { dir: rest[0]!, apiservers, haproxyConfig: values['haproxy-config'], natsUrl: values['nats-url'], timeoutMs: values.timeout };
}

/** haproxy.cfg for the compose profile: every address of the balancer's container, the apiservers' own ports. Pure. */
export function composeHaproxyConfig(apiservers: readonly string[]): string {
  const backends: Backend[] = apiservers.map((host) => ({ name: host, host, https: DEFAULT_PORTS.apiserver, grpc: DEFAULT_PORTS.apiserverGrpc }));
  return haproxyConfig({ bind: '0.0.0.0', httpsPort: DEFAULT_PORTS.apiserver, grpcPort: DEFAULT_PORTS.apiserverGrpc, monitorPort: HAPROXY_MONITOR_PORT, backends });
}

export async function kubeadmHaCommand(argv: string[]): Promise<number> {
  let a: KubeadmHaArgs;
  let tls;
  try {
    a = parseKubeadmHaArgs(argv);
    tls = readNatsTls(natsClientFiles(a.dir, 'admin'));
  } catch (e) {
    process.stderr.write(`kubelab kubeadm ha: ${(e as Error).message}\n`);
    return 2;
  }
  mkdirSync(dirname(a.haproxyConfig), { recursive: true });
  writeFileSync(a.haproxyConfig, composeHaproxyConfig(a.apiservers), { mode: 0o644 });
  process.stdout.write(`[ha] Wrote "${a.haproxyConfig}": haproxy in front of ${a.apiservers.join(', ')} (6443 HTTPS, 6444 gRPC, checked on /readyz)\n`);
  try {
    const r = await ensureReplicatedBucketAt(a.natsUrl, tls, a.timeoutMs);
    process.stdout.write(`[ha] The object store's bucket has ${r.replicas} replicas${r.leader ? ` (RAFT leader ${r.leader})` : ''}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`kubelab kubeadm ha: no replicated bucket on ${a.natsUrl}: ${(e as Error).message}\n`);
    return 1;
  }
}
