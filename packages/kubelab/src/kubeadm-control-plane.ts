// `kubelab kubeadm control-plane`: kubeadm init's phases that need the
// apiserver, for the compose stack's one-shot `kubeadm` service (the local
// runner runs the same functions in-process, see up.ts):
//   [control-plane] / [etcd]  write the static pod manifests of node control-plane
//   [api-check]               wait for a healthy API server
//   [mark-control-plane]      label and taint that node once its kubelet registered it
//   [bootstrap-token]         upload the bootstrap token kubeadm-init made, and cluster-info
//   [kubelet-finalize]        the node's kubelet.conf names its rotated client certificate
//   [addons]                  kube-proxy, node-problem-detector, storage and metrics-server
// It talks to the apiserver as kubernetes-admin (admin.conf), over gRPC as
// every kubelab client does; the api-check asks /readyz over HTTPS as kubeadm.

import { FlagError, FlagSet } from '@kubelab/component-base';
import { clientTlsFromKubeconfig, createClientset } from '@kubelab/client';
import { loadKubeconfig } from '@kubelab/pki/kubeconfig';
import { uploadBootstrapToken } from './bootstrap-token.js';
import { DEFAULT_SERVICE_CIDR, applyCorednsAddon } from './coredns-addon.js';
import { applyDaemonSetAddons, composeStaticPods, markControlPlane, writeStaticPods } from './control-plane-node.js';
import { getText } from './http-get.js';
import { kubeletFinalizePhase } from './kubelet-finalize.js';
import { applyMetricsServerAddon } from './metrics-server-addon.js';
import { applyDashboardAddon } from './dashboard-addon.js';
import { applyNpdAddon } from './npd-addon.js';
import { applyNetworkPolicyAddon } from './network-policy-addon.js';
import { applyStorageAddon } from './storage-addon.js';

/** metrics-server's --secure-port in compose (the control-plane node's kubelet has 10250, components.yaml's). */
export const COMPOSE_METRICS_SERVER_PORT = 4443;

const flags = new FlagSet('kubelab kubeadm control-plane')
  .string('kubeconfig', '/etc/kubernetes/admin.conf', "kubernetes-admin's kubeconfig (its server is the api-check's)")
  .string('apiserver-grpc-address', 'apiserver:6444', "kubelab: host:port of the apiserver's gRPC API")
  .string('manifest-dir', '/etc/kubernetes/manifests', "The control-plane node's staticPodPath")
  .string('node-name', 'control-plane', 'The node marked as control-plane')
  .string('bootstrap-token-file', '/etc/kubernetes/bootstrap-token.json', 'The token kubeadm init wrote (kubelab kubeadm init)')
  .string('kubelet-kubeconfig', '', "The node's kubelet.conf for the kubelet-finalize phase (empty: the phase is skipped)")
  .string('kubelet-cert-dir', '/var/lib/kubelet/pki', "The node's kubelet --cert-dir, where it keeps kubelet-client-current.pem")
  .string('timeout', '4m', 'How long to wait for the API server and the node');

export interface ControlPlaneArgs {
  kubeconfig: string;
  grpcAddress: string;
  manifestDir: string;
  nodeName: string;
  bootstrapTokenFile: string;
  /** kubelet-finalize: the node's kubelet.conf (undefined: skipped) and its kubelet's --cert-dir. */
  kubeletKubeconfig?: string;
  kubeletCertDir: string;
  timeoutMs: number;
}

export function parseControlPlaneArgs(argv: string[], env: NodeJS.ProcessEnv = {}): ControlPlaneArgs {
  const { values, rest } = flags.parse(argv, env);
  if (rest.length > 0) throw new FlagError(`unexpected argument "${rest[0]}"`);
  if (!/^[^/:\s]+:\d{1,5}$/.test(values['apiserver-grpc-address'])) throw new FlagError(`--apiserver-grpc-address "${values['apiserver-grpc-address']}": want host:port`);
  const m = /^(\d+)(s|m)$/.exec(values.timeout);
  if (!m) throw new FlagError(`--timeout "${values.timeout}": want a duration such as 90s or 4m`);
  return {
    kubeconfig: values.kubeconfig,
    grpcAddress: values['apiserver-grpc-address'],
    manifestDir: values['manifest-dir'],
    nodeName: values['node-name'],
    bootstrapTokenFile: values['bootstrap-token-file'],
    ...(values['kubelet-kubeconfig'] ? { kubeletKubeconfig: values['kubelet-kubeconfig'] } : {}),
    kubeletCertDir: values['kubelet-cert-dir'],
    timeoutMs: Number(m[1]) * (m[2] === 'm' ? 60_000 : 1000),
  };
}

export const CONTROL_PLANE_USAGE = `  control-plane [--kubeconfig /etc/kubernetes/admin.conf] [--apiserver-grpc-address apiserver:6444]
       [--manifest-dir /etc/kubernetes/manifests] [--node-name control-plane] [--bootstrap-token-file FILE] [--timeout 4m]
       [--kubelet-kubeconfig FILE] [--kubelet-cert-dir /var/lib/kubelet/pki]
          kubeadm init's phases after the files: the static pod manifests, api-check, mark-control-plane,
          the bootstrap token's upload, kubelet-finalize (with --kubelet-kubeconfig), the CoreDNS, kube-proxy, node-problem-detector, storage and metrics-server addons (the compose stack's kubeadm)
`;

export async function controlPlaneCommand(argv: string[]): Promise<number> {
  const a = parseControlPlaneArgs(argv, process.env);
  const log = (l: string) => process.stdout.write(`${l}\n`);
  const deadline = Date.now() + a.timeoutMs;
  const late = () => Date.now() > deadline;
  await writeStaticPods(a.manifestDir, composeStaticPods(), log);

  const admin = loadKubeconfig(a.kubeconfig);
  log(`[api-check] Waiting for a healthy API server. This can take up to ${a.timeoutMs / 60_000}m0s`);
  const t0 = Date.now();
  const tls = { ca: admin.caPem ?? '', ...(admin.clientCertPem && admin.clientKeyPem ? { cert: admin.clientCertPem, key: admin.clientKeyPem } : {}) };
  for (;;) {
    const r = await getText(`${admin.server}/readyz`, { tls }).catch(() => undefined);
    if (r?.status === 200) break;
    if (late()) throw new Error(`timed out after ${a.timeoutMs / 1000}s waiting for the API server`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  log(`[api-check] The API server is healthy after ${((Date.now() - t0) / 1000).toFixed(3)}s`);

  const cs = createClientset({ address: a.grpcAddress, tls: clientTlsFromKubeconfig(a.kubeconfig), component: 'kubeadm' });
  try {
    if (!(await markControlPlane(cs, a.nodeName, log, late))) throw new Error(`timed out after ${a.timeoutMs / 1000}s waiting for node ${a.nodeName}`);
    await uploadBootstrapToken(cs, a.bootstrapTokenFile, log);
    if (a.kubeletKubeconfig) {
      try {
        const done = await kubeletFinalizePhase({ kubeconfigPath: a.kubeletKubeconfig, certDir: a.kubeletCertDir, log, cancelled: late });
        if (!done) log(`[kubelet-finalize] WARNING: no kubelet-client-current.pem in ${a.kubeletCertDir}; ${a.kubeletKubeconfig} keeps kubeadm's first client certificate`);
      } catch (e) {
        log(`[kubelet-finalize] WARNING: ${(e as Error).message}`);
      }
    }
    await applyNpdAddon(cs, log);
    // Kept off hollow nodes (the hollow profile's, which may join a running stack at any time).
    await applyCorednsAddon(cs, { serviceCidr: DEFAULT_SERVICE_CIDR, hollow: true }, log);
    await applyDaemonSetAddons(cs, 'compose', log, true);
    await applyNetworkPolicyAddon(cs, 'compose', log, true);
    await applyStorageAddon(cs, log);
    // The compose service metrics-server listens on control-plane's :4443 (docker-compose.yml).
    await applyMetricsServerAddon(cs, COMPOSE_METRICS_SERVER_PORT, log, 'compose');
    await applyDashboardAddon(cs, log);
  } finally {
    cs.close();
  }
  log('');
  log('Your Kubernetes control-plane has initialized successfully!');
  return 0;
}
