// `kubeadm init` for the local runner: the cluster's certificates and
// kubeconfigs in the state dir (which plays /etc/kubernetes), kept across
// restarts; the user's kubeconfig is a copy of admin.conf, as kubeadm tells
// its users to `cp /etc/kubernetes/admin.conf $HOME/.kube/config`.

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN_NATS_IDENTITY, TRACE_NATS_IDENTITY, containerdNatsIdentity } from '@kubelab/nats';
import { ensureCert, ensureClusterPki, ensureKubeconfig, kubeletIdentity, type CertificateAuthority } from '@kubelab/pki';
import { NATS_CLIENT_FILES, kubeadmFiles, nodeNames, type Layout } from './topology.js';

/** The first address of the default service range: the `kubernetes` Service's ClusterIP, a SAN of apiserver.crt. */
const KUBERNETES_SERVICE_IP = '10.96.0.1';

export async function kubeadmInit(layout: Layout, userKubeconfig: string): Promise<void> {
  const server = `https://127.0.0.1:${layout.ports.apiserver}`;
  const pki = await ensureClusterPki({ dir: layout.stateDir, server, serviceIp: KUBERNETES_SERVICE_IP, apiserverIps: ['127.0.0.1'], etcdDnsNames: ['localhost'] });
  const files = kubeadmFiles(layout);
  // kube-proxy's identity (upstream binds system:node-proxier to the user system:kube-proxy).
  const kubeconfigs = [ensureKubeconfig(files.kubeProxy, pki.ca, { commonName: 'system:kube-proxy' }, { server })];
  for (let i = 1; i <= layout.nodes; i++) kubeconfigs.push(ensureKubeconfig(files.kubelet(`node-${i}`), pki.ca, kubeletIdentity(`node-${i}`), { server }));
  kubeconfigs.push(ensureNatsClientCerts(layout.stateDir, pki.etcdCa, nodeNames(layout)));
  await Promise.all(kubeconfigs);
  copyFileSync(files.admin, userKubeconfig);
}

/**
 * The NATS (etcd's role) clients besides the apiserver, from the etcd CA,
 * kept when present: the CLI's (`kubelab trace`, `kubelab kv`) under
 * `dir`/pki/etcd and each node's runtime under `dir`/nodes/<node>/pki.
 */
export async function ensureNatsClientCerts(dir: string, etcdCa: CertificateAuthority, nodes: readonly string[]): Promise<void> {
  const client = (commonName: string) => ({ commonName, usages: ['client' as const] });
  await Promise.all([
    ensureCert(dir, NATS_CLIENT_FILES.trace, etcdCa, client(TRACE_NATS_IDENTITY.commonName)),
    ensureCert(dir, NATS_CLIENT_FILES.admin, etcdCa, client(ADMIN_NATS_IDENTITY.commonName)),
    ...nodes.map((node) => ensureCert(join(dir, 'nodes', node), NATS_CLIENT_FILES.containerd, etcdCa, client(containerdNatsIdentity(node).commonName))),
  ]);
}
