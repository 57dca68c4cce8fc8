// What exists in every cluster from the start (upstream: the apiserver's
// system namespaces controller, the `kubernetes` Service of the bootstrap
// controller (its endpoints: reconcilers/endpoints.ts), the rbac/bootstrap-roles and the
// scheduling/bootstrap-system-priority-classes and priority-and-fairness-config-producer
// post-start hooks), written
// idempotently on every start.

import { SYSTEM_PRIORITY_CLASSES, type KubeObject } from '@kubelab/api';
import { APISERVER } from './authentication/user.js';
import { ensureRbacPolicy } from './authorization/rbac/bootstrap/ensure.js';
import type { ApiRegistry } from './registry/registry.js';
import type { RequestContext } from './registry/interface.js';
import { ensure, getOrUndefined } from './registry/ensure.js';
import { ensureFlowControlConfiguration } from './flowcontrol/config-controller.js';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export interface BootstrapOptions {
  /** The `kubernetes` Service's ClusterIP (first address of the service range). */
  kubernetesServiceIp: string;
  /** The REST port (the Service's targetPort). */
  securePort: number;
  /** False (--endpoint-reconciler-type=none): the Service is created when missing, its port left to the other apiservers. */
  reconcilePorts?: boolean;
}

const ctx: RequestContext = { user: APISERVER, fieldManager: 'kube-apiserver' };

/** Namespaces, the `kubernetes` Service (its endpoints are the endpoint reconciler's) and the default policy. */
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
  } else if (opts.reconcilePorts !== false && JSON.stringify((svc as { spec?: { ports?: unknown } }).spec?.ports) !== JSON.stringify(ports)) {
    await services.patch('default', 'kubernetes', 'application/merge-patch+json', { spec: { ports } }, ctx);
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

  // API Priority and Fairness' FlowSchemas and priority levels (upstream's priority-and-fairness-config-producer hook).
  await ensureFlowControlConfiguration(registry, ctx);
}
