// @ts-check
// The flags both kubelet benches start node-1's containerd and kubelet with:
// one node, its state under `dir`, zero simulated pull time, quiet logs, and
// node-1's identities as `kubelab up` gives them (its kubelet.conf, the
// cluster CA for its HTTPS API, its runtime's NATS certificate).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * node-1's credentials in `cluster`: its kubelet's kubeconfig (system:node:node-1) and the CA
 * that verifies clients of its API; its runtime's NATS certificate (kubelab:containerd:node-1).
 * @param {import('@kubelab/apiserver/testing').ProcessCluster} cluster
 */
export const nodeIdentities = async (cluster) => ({
  kubeconfig: await cluster.kubeconfig({ node: 'node-1' }),
  clientCaFile: cluster.caFile,
  natsTls: await cluster.natsTlsFiles({ node: 'node-1' }),
});

/**
 * containerd of node-1, serving CRI on `socket` and publishing its call records to NATS.
 * @param {string} dir @param {string} socket @param {string} natsUrl @param {{ caFile: string, certFile: string, keyFile: string }} tls
 */
export const containerdArgs = (dir, socket, natsUrl, tls) => [
  ...['--node-name', 'node-1', '--address', socket, '--root', join(dir, 'containerd'), '--health-port', '0', '--pull-speed', '0'],
  ...['--nats-url', natsUrl, '--nats-ca-file', tls.caFile, '--nats-cert-file', tls.certFile, '--nats-key-file', tls.keyFile],
  ...['--pod-cidr', '10.244.1.0/24', '--v', 'error'],
];

/**
 * The kubelet of node-1 against the apiserver at `api` (host:port) and the runtime on `socket`.
 * @param {string} dir @param {string} socket @param {string} api @param {number} port its API port (0: any)
 * @param {{ kubeconfig: string, clientCaFile: string }} ids
 */
export const kubeletArgs = (dir, socket, api, port, ids) => [
  ...['--apiserver-grpc-address', api, '--kubeconfig', ids.kubeconfig, '--client-ca-file', ids.clientCaFile],
  ...['--hostname-override', 'node-1', '--node-ip', '127.0.0.1', '--container-runtime-endpoint', `unix://${socket}`],
  ...['--address', '127.0.0.1', '--port', String(port), '--healthz-port', '0', '--root-dir', join(dir, 'kubelet'), '--pod-logs-dir', join(dir, 'pods')],
  // kubeadm's clusterDNS and clusterDomain, as `kubelab up` sets them: without them every ClusterFirst
  // pod gets a MissingClusterDNS warning, on the pod and on the node, which no deployed node makes.
  ...['--cluster-dns', '10.96.0.10', '--cluster-domain', 'cluster.local'],
];

/**
 * kube-controller-manager as `kubelab up` runs it: its ServiceAccount and
 * root-CA controllers give each namespace what a pod's kube-api-access volume mounts.
 * @param {import('@kubelab/apiserver/testing').ProcessCluster} cluster
 */
export const controllerManagerArgs = (cluster) => [
  ...cluster.controllerManagerArgs(),
  ...['--apiserver-grpc-address', cluster.apiserver.address, '--bind-address', '127.0.0.1', '--secure-port', '0', '--leader-elect=false'],
];

/**
 * utime + stime (self) and cutime + cstime (reaped children) in ms, and the parent, of a process (/proc, ticks of 10 ms).
 * @param {number} pid @returns {{ ppid: number, self: number, children: number } | undefined}
 */
export const procStat = (pid) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { ppid: Number(f[1]), self: (Number(f[11]) + Number(f[12])) * 10, children: (Number(f[13]) + Number(f[14])) * 10 };
  } catch {
    return undefined;
  }
};

/**
 * The live processes whose parent is `pid`: containerd's shims (each in a session of its own, their parent stays containerd).
 * @param {number} pid @returns {number[]}
 */
export const childPids = (pid) =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((p) => procStat(p)?.ppid === pid);
