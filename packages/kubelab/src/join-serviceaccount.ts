// A joined node's DaemonSet units (kube-proxy, the Node Problem Detector, the
// NetworkPolicy agent), with the identity kubeadm's cluster gives them: their
// DaemonSet pod's ServiceAccount (kube-proxy: kube-system/kube-proxy,
// ClusterRoleBinding kubeadm:node-proxier → ClusterRole system:node-proxier;
// NPD: kube-system/node-problem-detector, npd-binding →
// system:node-problem-detector; kube-network-policies:
// kube-system/kube-network-policies, its ClusterRoleBinding of the same name),
// never a certificate of their own. Upstream each runs as its DaemonSet's
// pod: the kubelet asks for a token bound to that pod (the Node authorizer
// allows it for a pod bound to its node) and projects it, with the cluster
// CA, into the pod's kube-api-access volume, mounted in the container at
// /var/run/secrets/kubernetes.io/serviceaccount; kube-proxy's kubeconfig.conf
// (ConfigMap kube-proxy) names the token by `tokenFile`, NPD and
// kube-network-policies read it as their in-cluster config. Here the
// DaemonSet's pod on this node is a stand-in and the component is the node's
// unit, so the join links the unit's view of that mount (<node
// root>/run/kubelab/units/<unit>/var/run/secrets/…, one per unit as each pod
// has its own) to the stand-in pod's projected volume and writes a kubeconfig
// naming the mount's CA and token under the node root's /var/lib/<unit>. The
// kubelet keeps the token fresh; the unit reads the file again each minute
// and sends it as a bearer token on the apiserver's gRPC port
// (docs/architecture.md, "Nodes from other machines").

import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KubernetesClaim } from '@kubelab/serviceaccount';
import type { NodeUnitName } from '@kubelab/systemd';
import { NETPOL_NAME, NETPOL_NAMESPACE } from './network-policy-addon.js';
import { NPD_NAMESPACE, NPD_SERVICE_ACCOUNT } from './npd-addon.js';

/** Where a pod's containers see their ServiceAccount's token and the cluster CA (kube-api-access's mountPath). */
export const SERVICE_ACCOUNT_MOUNT = 'var/run/secrets/kubernetes.io/serviceaccount';
const PROJECTED = 'kubernetes.io~projected';

/** The `kubernetes.io` claim of a bound ServiceAccount token, unverified (the kubelet wrote it); undefined when it is not one. Pure. */
export function boundTokenClaim(jwt: string): KubernetesClaim | undefined {
  const payload = jwt.trim().split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { 'kubernetes.io'?: KubernetesClaim };
    const k = claims['kubernetes.io'];
    return k && typeof k.namespace === 'string' && typeof k.serviceaccount?.name === 'string' ? k : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The projected volume of a pod on this node whose token is bound to
 * ServiceAccount `namespace/name` and to that pod (the kubelet's
 * `<root-dir>/pods/<uid>/volumes/kubernetes.io~projected/<volume>`), with the
 * pod's name; undefined until the kubelet has written one.
 */
export function findServiceAccountVolume(kubeletRoot: string, namespace: string, name: string): { dir: string; pod: string } | undefined {
  const pods = join(kubeletRoot, 'pods');
  const list = (d: string) => {
    try {
      return readdirSync(d);
    } catch {
      return [];
    }
  };
  for (const uid of list(pods)) {
    const projected = join(pods, uid, 'volumes', PROJECTED);
    for (const volume of list(projected)) {
      const dir = join(projected, volume);
      let token: string;
      try {
        token = readFileSync(join(dir, 'token'), 'utf8');
      } catch {
        continue;
      }
      const k = boundTokenClaim(token);
      if (k?.namespace === namespace && k.serviceaccount.name === name && k.pod?.uid === uid && existsSync(join(dir, 'ca.crt'))) return { dir, pod: k.pod.name };
    }
  }
  return undefined;
}

/** A unit that runs as its DaemonSet's pod on a joined node, and that pod's ServiceAccount. */
export interface DaemonSetUnit {
  unit: Extract<NodeUnitName, 'kube-proxy' | 'node-problem-detector' | 'kube-network-policies'>;
  namespace: string;
  serviceAccount: string;
}

/** kubeadm's kube-proxy addon, upstream's node-problem-detector and kube-network-policies DaemonSets, in the order a joined node starts them. */
export const JOINED_DAEMONSET_UNITS: readonly DaemonSetUnit[] = [
  { unit: 'kube-proxy', namespace: 'kube-system', serviceAccount: 'kube-proxy' },
  { unit: 'node-problem-detector', namespace: NPD_NAMESPACE, serviceAccount: NPD_SERVICE_ACCOUNT },
  { unit: 'kube-network-policies', namespace: NETPOL_NAMESPACE, serviceAccount: NETPOL_NAME },
];

/** Where a unit's files for its identity live under the node root: its view of the pod's ServiceAccount mount, and its kubeconfig (/var/lib/<unit>/kubeconfig.conf, kubeadm's path for kube-proxy's). Pure. */
export function daemonSetUnitPaths(root: string, unit: DaemonSetUnit['unit']): { mount: string; kubeconfig: string } {
  return { mount: join(root, 'run', 'kubelab', 'units', unit, SERVICE_ACCOUNT_MOUNT), kubeconfig: join(root, 'var', 'lib', unit, 'kubeconfig.conf') };
}

/** The ServiceAccount's user name, as its token authenticates. Pure. */
export function serviceAccountUser(u: Pick<DaemonSetUnit, 'namespace' | 'serviceAccount'>): string {
  return `system:serviceaccount:${u.namespace}:${u.serviceAccount}`;
}

/** Points a unit's ServiceAccount mount at `volumeDir` (replacing a link to a pod that is gone); true when it changed. */
export function linkServiceAccountMount(mount: string, volumeDir: string): boolean {
  let current: string | undefined;
  try {
    current = readlinkSync(mount);
  } catch {
    current = undefined;
  }
  if (current === volumeDir) return false;
  mkdirSync(dirname(mount), { recursive: true });
  const tmp = `${mount}.${process.pid}.tmp`;
  symlinkSync(volumeDir, tmp);
  renameSync(tmp, mount);
  return true;
}

/**
 * A kubeconfig naming the ServiceAccount mount's CA and token file: kubeadm's
 * kubeconfig.conf of ConfigMap kube-system/kube-proxy, and what a pod's
 * in-cluster config amounts to (NPD's, kube-network-policies'). Pure.
 */
export function serviceAccountKubeconfig(server: string, mount: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- cluster:',
    `    certificate-authority: ${join(mount, 'ca.crt')}`,
    `    server: ${server}`,
    '  name: default',
    'contexts:',
    '- context:',
    '    cluster: default',
    '    namespace: default',
    '    user: default',
    '  name: default',
    'current-context: default',
    'users:',
    '- name: default',
    '  user:',
    `    tokenFile: ${join(mount, 'token')}`,
    '',
  ].join('\n');
}

/** The unit's kubeconfig, written; its path. */
export function writeServiceAccountKubeconfig(server: string, paths: { mount: string; kubeconfig: string }): string {
  mkdirSync(dirname(paths.kubeconfig), { recursive: true });
  writeFileSync(paths.kubeconfig, serviceAccountKubeconfig(server, paths.mount), { mode: 0o600 });
  return paths.kubeconfig;
}
