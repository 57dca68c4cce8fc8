// kube-proxy on a joined node, with the identity kubeadm gives it: the
// kube-proxy ServiceAccount of kube-system (ClusterRoleBinding
// kubeadm:node-proxier → ClusterRole system:node-proxier), never a
// certificate of its own. Upstream it runs as the kube-proxy DaemonSet's pod:
// the kubelet asks for a token bound to that pod (the Node authorizer allows
// it for a pod bound to its node) and projects it, with the cluster CA, into
// the pod's kube-api-access volume, mounted at
// /var/run/secrets/kubernetes.io/serviceaccount; the kubeconfig.conf of
// ConfigMap kube-proxy names the token by `tokenFile`. Here the DaemonSet's pod
// on this node is a stand-in and kube-proxy is the node's unit, so the join
// links the node root's /var/run/secrets/kubernetes.io/serviceaccount to the
// stand-in pod's projected volume (the mount) and writes that kubeconfig
// under the node root's /var/lib/kube-proxy. The kubelet keeps the token
// fresh; kube-proxy reads the file again each minute and sends it as a bearer
// token on the apiserver's gRPC port (docs/architecture.md, "Nodes from
// other machines").

import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { KubernetesClaim } from '@kubelab/serviceaccount';

/** Where a pod's containers see their ServiceAccount's token and the cluster CA. */
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

/** Points the node root's ServiceAccount mount at `volumeDir` (replacing a link to a pod that is gone); true when it changed. */
export function linkServiceAccountMount(root: string, volumeDir: string): boolean {
  const mount = join(root, SERVICE_ACCOUNT_MOUNT);
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

/** kubeadm's kubeconfig.conf of ConfigMap kube-system/kube-proxy, its paths under the node root. Pure. */
export function kubeProxyKubeconfig(server: string, root: string): string {
  const mount = join(root, SERVICE_ACCOUNT_MOUNT);
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

/** The node root's /var/lib/kube-proxy/kubeconfig.conf, written. */
export function writeKubeProxyKubeconfig(server: string, root: string): string {
  const path = join(root, 'var', 'lib', 'kube-proxy', 'kubeconfig.conf');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, kubeProxyKubeconfig(server, root), { mode: 0o600 });
  return path;
}
