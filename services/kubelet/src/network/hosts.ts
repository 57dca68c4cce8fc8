// The kubelet-managed /etc/hosts (upstream kubelet_pods.go makeHostsMount):
// written to <root-dir>/pods/<uid>/etc-hosts and mounted into every
// container that does not mount /etc/hosts itself.

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Container, Pod, PodSpec } from '@kubelab/api';

type HostAlias = NonNullable<PodSpec['hostAliases']>[number];
import type { Mount } from '../kuberuntime/cri.js';
import { podDir } from '../volumemanager/paths.js';

export const ETC_HOSTS_PATH = '/etc/hosts';

/** Upstream hostsEntriesFromHostAliases: a blank line, a comment, one line per IP. */
function hostAliasLines(aliases: readonly HostAlias[] | undefined): string {
  if (!aliases?.length) return '';
  return `\n# Entries added by HostAliases.\n${aliases.map((a) => `${a.ip}\t${(a.hostnames ?? []).join('\t')}\n`).join('')}`;
}

/** Upstream managedHostsFileContent: localhost lines, then the pod IPs with the hostname (and FQDN with a subdomain). */
export function managedHostsFileContent(podIPs: readonly string[], hostname: string, domain: string, aliases?: readonly HostAlias[]): string {
  let out = '# Kubernetes-managed hosts file.\n';
  out += '127.0.0.1\tlocalhost\n';
  out += '::1\tlocalhost ip6-localhost ip6-loopback\n';
  out += 'fe00::0\tip6-localnet\n';
  out += 'fe00::0\tip6-mcastprefix\n';
  out += 'fe00::1\tip6-allnodes\n';
  out += 'fe00::2\tip6-allrouters\n';
  for (const ip of podIPs) out += domain ? `${ip}\t${hostname}.${domain}\t${hostname}\n` : `${ip}\t${hostname}\n`;
  return out + hostAliasLines(aliases);
}

/** Upstream nodeHostsFileContent: a host-network pod gets the node's hosts file plus its aliases. */
export function nodeHostsFileContent(nodeHosts: string, aliases?: readonly HostAlias[]): string {
  return `# Kubernetes-managed hosts file (host network).\n${nodeHosts}${hostAliasLines(aliases)}`;
}

/** Whether the kubelet mounts its hosts file into c (upstream shouldMountHostsFile, Linux only): not when c mounts /etc/hosts itself. */
export function mountsOwnHosts(c: Container): boolean {
  return (c.volumeMounts ?? []).some((m) => m.mountPath === ETC_HOSTS_PATH);
}

export interface HostsFileOptions {
  rootDir: string;
  /** The node's hosts file (upstream /etc/hosts), read for host-network pods. */
  nodeHostsPath?: string;
}

/**
 * Writes the pod's etc-hosts (atomically: a running container may be copying it) and returns its mount.
 * Off the event loop: a hollow worker starts hundreds of containers at once, and a synchronous write
 * per container start held every other node of the process.
 */
export async function ensureHostsFile(o: HostsFileOptions, pod: Pod, podIPs: readonly string[], hostname: string, domain: string): Promise<Mount> {
  const dir = podDir(o.rootDir, pod.metadata.uid ?? '');
  await mkdir(dir, { recursive: true });
  let content: string;
  if (pod.spec?.hostNetwork) {
    let nodeHosts = '';
    try {
      nodeHosts = await readFile(o.nodeHostsPath ?? '/etc/hosts', 'utf8');
    } catch {
      // A node without /etc/hosts: only the aliases.
    }
    content = nodeHostsFileContent(nodeHosts, pod.spec.hostAliases);
  } else {
    content = managedHostsFileContent(podIPs, hostname, domain, pod.spec?.hostAliases);
  }
  const path = join(dir, 'etc-hosts');
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
  return { hostPath: path, containerPath: ETC_HOSTS_PATH, readonly: false };
}
