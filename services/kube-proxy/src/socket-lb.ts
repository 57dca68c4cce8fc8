// kube-proxy's data path in the local runner, where the nodes share the
// host's network namespace and rules are only rendered: after each sync it
// writes the Service frontends and their endpoints to the node's socket-LB
// directory (services.json), which the runtime's connect hook reads at each
// connect (services/containerd socket-lb.ts), as Cilium's kube-proxy
// replacement fills BPF maps its socket hooks consult. The endpoints per
// frontend are the ones the iptables rules would send to: cluster traffic
// (ClusterIP) per internalTrafficPolicy, external traffic (external and
// load-balancer IPs) per externalTrafficPolicy, ready ones first, else the
// serving terminating ones (categorizeEndpoints).

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { categorizeEndpoints } from './proxy/endpoints.js';
import type { ProxySnapshot } from './proxy/types.js';

export const SERVICES_FILE = 'services.json';

/** `<ip>:<port>/<proto>` → endpoints `<ip>:<port>`; an empty list refuses (kube-proxy's REJECT). Pure. */
export function serviceFrontends(snap: ProxySnapshot): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const svc of snap.services) {
    if (svc.protocol === 'SCTP') continue;
    const eps = categorizeEndpoints(svc, snap.endpoints.get(svc.name) ?? []);
    const list = (local: boolean) => (local ? eps.local : eps.cluster).map((e) => e.endpoint);
    if (svc.clusterIP && svc.clusterIP !== 'None') out[`${svc.clusterIP}:${svc.port}/${svc.protocol}`] = list(svc.internalTrafficPolicy === 'Local');
    for (const ip of [...svc.externalIPs, ...svc.loadBalancerIPs]) out[`${ip}:${svc.port}/${svc.protocol}`] = list(svc.externalTrafficPolicy === 'Local');
  }
  return out;
}

/** Writes the frontends for the runtime's connect hook (by rename: a reader never sees half a file); false when unchanged. */
export function writeServiceFrontends(dir: string, frontends: Record<string, string[]>, last: { text: string }): boolean {
  const text = JSON.stringify({ frontends });
  if (text === last.text) return false;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, SERVICES_FILE);
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  last.text = text;
  return true;
}
