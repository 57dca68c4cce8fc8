// What exists in every cluster from the start (upstream: the apiserver's
// system namespaces controller, the `kubernetes` service/endpoint
// reconciler, the rbac/bootstrap-roles and the
// scheduling/bootstrap-system-priority-classes post-start hooks), written
// idempotently on every start.

import { FlagError } from '@kubelab/component-base';
import { isAlreadyExists, isNotFound, SYSTEM_PRIORITY_CLASSES, type KubeObject } from '@kubelab/api';
import { APISERVER } from './authentication/user.js';
import { ensureRbacPolicy } from './authorization/rbac/bootstrap/ensure.js';
import type { ApiRegistry } from './registry/registry.js';
import type { RequestContext } from './registry/interface.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export interface BootstrapOptions {
  /** The `kubernetes` Service's ClusterIP (first address of the service range). */
  kubernetesServiceIp: string;
  /** Where the apiserver is reachable (EndpointSlice address). */
  advertiseAddress: string;
  /** The REST port (the Service's targetPort and the endpoint port). */
  securePort: number;
  /** False (--endpoint-reconciler-type=none): the Service is created when missing, its port and endpoints are left to the other apiservers. */
  reconcileEndpoints?: boolean;
}

/** --endpoint-reconciler-type: lease and master-count publish this apiserver in the kubernetes EndpointSlice; none does not. */
export function endpointReconcilerFrom(type: string): { reconcileEndpoints: boolean } {
  if (type !== 'lease' && type !== 'master-count' && type !== 'none') throw new FlagError(`invalid argument "${type}" for "--endpoint-reconciler-type" flag: must be master-count, lease or none`);
  return { reconcileEndpoints: type !== 'none' };
}

const ctx: RequestContext = { user: APISERVER, fieldManager: 'kube-apiserver' };

async function ensure(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
  }
}

async function getOrUndefined(f: () => Promise<KubeObject>): Promise<KubeObject | undefined> {
  try {
    return await f();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

export async function bootstrap(registry: ApiRegistry, opts: BootstrapOptions): Promise<void> {
  const namespaces = registry.mustStore('', 'namespaces');
  for (const name of SYSTEM_NAMESPACES) {
    await ensure(() => namespaces.create(undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, ctx));
  }

  const services = registry.mustStore('', 'services');
  const ports = [{ name: 'https', protocol: 'TCP', port: 443, targetPort: opts.securePort }];
  const svc = await getOrUndefined(() => services.get('default', 'kubernetes'));
  if (!svc) {
    await ensure(() =>
      services.create(
        'default',
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
          spec: { type: 'ClusterIP', clusterIP: opts.kubernetesServiceIp, ports, sessionAffinity: 'None' },
        } as KubeObject,
        ctx,
      ),
    );
  } else if (opts.reconcileEndpoints !== false && JSON.stringify((svc as { spec?: { ports?: unknown } }).spec?.ports) !== JSON.stringify(ports)) {
    await services.patch('default', 'kubernetes', 'application/merge-patch+json', { spec: { ports } }, ctx);
  }
  if (opts.reconcileEndpoints === false) return bootstrapPolicy(registry);

  const slices = registry.mustStore('discovery.k8s.io', 'endpointslices');
  const slice = {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: [opts.advertiseAddress], conditions: { ready: true } }],
    ports: [{ name: 'https', port: opts.securePort, protocol: 'TCP' }],
  };
  const cur = await getOrUndefined(() => slices.get('default', 'kubernetes'));
  if (!cur) await ensure(() => slices.create('default', slice as unknown as KubeObject, ctx));
  else {
    const c = cur as unknown as typeof slice;
    if (JSON.stringify(c.endpoints) !== JSON.stringify(slice.endpoints) || JSON.stringify(c.ports) !== JSON.stringify(slice.ports)) {
      await slices.patch('default', 'kubernetes', 'application/merge-patch+json', { endpoints: slice.endpoints, ports: slice.ports }, ctx);
    }
  }

  // The legacy Endpoints object kubectl describe/cluster-info still read.
  const endpoints = registry.mustStore('', 'endpoints');
  const ep = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: opts.advertiseAddress }], ports: [{ name: 'https', port: opts.securePort, protocol: 'TCP' }] }],
  };
  const curEp = await getOrUndefined(() => endpoints.get('default', 'kubernetes'));
  if (!curEp) await ensure(() => endpoints.create('default', ep as unknown as KubeObject, ctx));
  else if (JSON.stringify((curEp as unknown as typeof ep).subsets) !== JSON.stringify(ep.subsets)) {
    await endpoints.patch('default', 'kubernetes', 'application/merge-patch+json', { subsets: ep.subsets }, ctx);
  }
  await bootstrapPolicy(registry);
}

/** The post-start hooks after the kubernetes Service's. */
async function bootstrapPolicy(registry: ApiRegistry): Promise<void> {
  // The default RBAC policy, once its namespaces exist (upstream's rbac/bootstrap-roles hook).
  await ensureRbacPolicy(registry, ctx);

  // system-node-critical and system-cluster-critical (upstream's scheduling/bootstrap-system-priority-classes hook).
  const classes = registry.mustStore('scheduling.k8s.io', 'priorityclasses');
  for (const pc of SYSTEM_PRIORITY_CLASSES) await ensure(() => classes.create(undefined, structuredClone(pc) as KubeObject, ctx));
}
