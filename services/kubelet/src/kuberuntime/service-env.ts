// Service environment variables (upstream pkg/kubelet/envvars and
// getServiceEnvVarMap): every container learns the cluster IP and ports of the
// `kubernetes` Service in `default`, and — with enableServiceLinks, the
// default — of every Service in its own namespace, in both the
// {NAME}_SERVICE_HOST/_PORT form and the Docker-links form ({NAME}_PORT_80_TCP...).

import type { Service } from '@kubelab/api';
import { joinHostPort } from '@kubelab/api';

/** The master service every pod sees (upstream: kubernetes in the default namespace). */
const MASTER_NAMESPACE = 'default';
const MASTER_SERVICE = 'kubernetes';

const envName = (s: string) => s.toUpperCase().replace(/-/g, '_');

/** Services whose variables a pod in `namespace` gets; same-named services of the pod's namespace win. */
export function servicesForPod(all: readonly Service[], namespace: string, enableServiceLinks: boolean): Service[] {
  const byName = new Map<string, Service>();
  for (const s of all) {
    const ip = s.spec?.clusterIP;
    if (!ip || ip === 'None') continue; // headless or not yet allocated
    const ns = s.metadata.namespace ?? 'default';
    const name = s.metadata.name ?? '';
    if (ns === MASTER_NAMESPACE && name === MASTER_SERVICE && !byName.has(name)) byName.set(name, s);
    if (enableServiceLinks && ns === namespace) byName.set(name, s);
  }
  return [...byName.values()];
}

/** The variables for those services (upstream FromServices), in service-name order for stable output. */
export function serviceEnvVars(services: readonly Service[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of [...services].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
    const name = envName(s.metadata.name ?? '');
    const ip = s.spec!.clusterIP!;
    const ports = s.spec?.ports ?? [];
    out.set(`${name}_SERVICE_HOST`, ip);
    if (ports[0]) out.set(`${name}_SERVICE_PORT`, String(ports[0].port));
    for (const p of ports) if (p.name) out.set(`${name}_SERVICE_PORT_${envName(p.name)}`, String(p.port));
    // Docker links: the first port also as {NAME}_PORT.
    ports.forEach((p, i) => {
      const proto = (p.protocol ?? 'TCP').toLowerCase();
      const url = `${proto}://${joinHostPort(ip, p.port)}`;
      const prefix = `${name}_PORT_${p.port}_${proto.toUpperCase()}`;
      if (i === 0) out.set(`${name}_PORT`, url);
      out.set(prefix, url);
      out.set(`${prefix}_PROTO`, proto);
      out.set(`${prefix}_PORT`, String(p.port));
      out.set(`${prefix}_ADDR`, ip);
    });
  }
  return out;
}
