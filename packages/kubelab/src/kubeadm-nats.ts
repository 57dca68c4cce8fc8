// `kubelab kubeadm nats DIR`: the NATS phase for clusters the local runner
// does not start (the compose stack): the NATS client certificates from the
// etcd CA in DIR (kept when present), and DIR/nats.conf from the same
// function `kubelab up` uses. DIR plays /etc/kubernetes, as mounted where
// nats-server reads it: the file paths in nats.conf are DIR's.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FlagError, FlagSet } from '@kubelab/component-base';
import { natsServerConfig } from '@kubelab/nats';
import { CertificateAuthority, PKI_FILES } from '@kubelab/pki';
import { ensureNatsClientCerts } from './kubeadm.js';
import { DEFAULT_PORTS } from './topology.js';

export function kubeadmNatsFlags() {
  return new FlagSet('pnpm kubelab kubeadm nats DIR')
    .stringArray('nodes', [], 'the nodes whose runtime may publish CRI records (repeatable, or a comma list), e.g. node-1,node-2')
    .string('listen', `0.0.0.0:${DEFAULT_PORTS.nats}`, "nats-server's client address")
    .string('monitor', `0.0.0.0:${DEFAULT_PORTS.natsMonitor}`, "nats-server's monitoring address (/healthz; unauthenticated); empty for none")
    .string('store-dir', '/data/jetstream', "JetStream's store, as nats-server sees it")
    .string('bucket', 'kubelab', "the apiserver's --kv-bucket");
}

export interface KubeadmNatsArgs {
  dir: string;
  nodes: string[];
  listen: string;
  monitor: string;
  storeDir: string;
  bucket: string;
}

export function parseKubeadmNatsArgs(argv: string[], env: NodeJS.ProcessEnv = {}): KubeadmNatsArgs {
  const { values, rest } = kubeadmNatsFlags().parse(argv, env);
  if (rest.length !== 1) throw new FlagError('usage: pnpm kubelab kubeadm nats DIR --nodes node-1,node-2 [--listen 0.0.0.0:4222] [--monitor 0.0.0.0:8222] [--store-dir /data/jetstream]');
  const nodes = values.nodes.map((n) => n.trim()).filter(Boolean);
  return { dir: rest[0]!, nodes, listen: values.listen, monitor: values.monitor, storeDir: values['store-dir'], bucket: values.bucket };
}

export async function kubeadmNatsCommand(argv: string[]): Promise<number> {
  let args: KubeadmNatsArgs;
  try {
    args = parseKubeadmNatsArgs(argv);
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  const at = (base: string, ext: string) => join(args.dir, `${base}.${ext}`);
  if (!existsSync(at(PKI_FILES.etcdCa, 'key'))) {
    process.stderr.write(`kubelab kubeadm nats: no etcd CA at ${at(PKI_FILES.etcdCa, 'crt')}: create the cluster's certificates first (kubeadm init phase certs)\n`);
    return 1;
  }
  const etcdCa = await CertificateAuthority.fromPem(readFileSync(at(PKI_FILES.etcdCa, 'crt'), 'utf8'), readFileSync(at(PKI_FILES.etcdCa, 'key'), 'utf8'));
  await ensureNatsClientCerts(args.dir, etcdCa, args.nodes);
  const config = join(args.dir, 'nats.conf');
  writeFileSync(
    config,
    natsServerConfig({
      listen: args.listen,
      ...(args.monitor ? { monitor: args.monitor } : {}),
      storeDir: args.storeDir,
      tls: { certFile: at(PKI_FILES.etcdServer, 'crt'), keyFile: at(PKI_FILES.etcdServer, 'key'), caFile: at(PKI_FILES.etcdCa, 'crt') },
      nodes: args.nodes,
      bucket: args.bucket,
    }),
  );
  process.stdout.write(`[nats] Wrote "${config}" and the NATS client certificates (trace, admin, containerd of ${args.nodes.join(', ') || 'no node'})\n`);
  return 0;
}
