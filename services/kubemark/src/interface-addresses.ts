// The hollow nodes' addresses on a container's interface (--node-ip-interface,
// compose's hollow-nodes service): each node's address is added to the
// interface, so that the container answers ARP for it on the Docker network
// and every container there reaches the node's kubelet API at its own IP, as
// kubemark's hollow-node pods each have a pod IP. The local runner's nodes use
// 127.100.x.y instead, which Linux routes to `lo` without being added.

import { execFile } from 'node:child_process';
import { networkInterfaces } from 'node:os';

/** The interface's first IPv4 address as address/prefix (172.20.0.5/16). */
export function interfaceCidr(name: string): string {
  const ifaces = networkInterfaces();
  const found = ifaces[name]?.find((a) => a.family === 'IPv4');
  if (!found?.cidr) throw new Error(`no IPv4 address on interface "${name}" (interfaces: ${Object.keys(ifaces).join(', ')})`);
  return found.cidr;
}

/** `ip address replace A/32 dev NAME` for each address, in one `ip -batch` (replace: a restarted container keeps them). */
export function addInterfaceAddresses(name: string, ips: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const ip = execFile('ip', ['-batch', '-'], (err, _stdout, stderr) =>
      err ? reject(new Error(`adding the hollow nodes' addresses to ${name} (needs CAP_NET_ADMIN): ${stderr.trim() || err.message}`)) : resolve(),
    );
    ip.stdin!.end(ips.map((a) => `address replace ${a}/32 dev ${name}\n`).join(''));
  });
}
