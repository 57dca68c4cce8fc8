// The root CA certificate publisher (upstream
// pkg/controller/certificates/rootcacertpublisher): every active namespace
// has ConfigMap `kube-root-ca.crt` with the cluster CA under `ca.crt`, the
// CA the kube-api-access volume projects into pods. Deleted or edited, it is
// put back.

import { isAlreadyExists, isNotFound, type ConfigMap, type Namespace } from '@kubelab/api';
import { isTombstone, type Lister } from '@kubelab/client';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';

export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';

/** Whether a ConfigMap already says what the publisher would write (upstream: same data, a description present). */
export function upToDate(cm: ConfigMap, rootCA: string): boolean {
  const data = cm.data ?? {};
  return Object.keys(data).length === 1 && data['ca.crt'] === rootCA && !!cm.metadata.annotations?.[DESCRIPTION_ANNOTATION];
}

export class RootCACertPublisher extends QueueController {
  private readonly nsLister: Lister<Namespace>;
  private readonly cmLister: Lister<ConfigMap>;

  constructor(
    private readonly ctx: ControllerContext,
    /** The PEM of `--root-ca-file`. */
    private readonly rootCA: string,
  ) {
    super('root_ca_cert_publisher', ctx.logger, queueOptions(ctx));
    const ns = ctx.informers.core.namespaces();
    const cm = ctx.informers.core.configMaps();
    this.nsLister = ns.lister();
    this.cmLister = cm.lister();
    ns.addEventHandler({
      onAdd: (n) => this.enqueue(n.metadata.name ?? ''),
      onUpdate: (_o, n) => this.enqueue(n.metadata.name ?? ''),
    });
    const onConfigMap = (c: ConfigMap) => {
      if (c.metadata.name === ROOT_CA_CONFIGMAP) this.enqueue(c.metadata.namespace ?? '');
    };
    cm.addEventHandler({
      onUpdate: (_o, c) => onConfigMap(c),
      onDelete: (o) => onConfigMap(isTombstone(o) ? o.obj : o),
    });
  }

  async sync(name: string): Promise<void> {
    const ns = this.nsLister.get(name);
    if (!ns || ns.metadata.deletionTimestamp || (ns.status?.phase ?? 'Active') !== 'Active') return;
    const client = this.ctx.clientset.core.configMaps(name);
    const existing = this.cmLister.namespace(name).get(ROOT_CA_CONFIGMAP);
    if (!existing) {
      try {
        await client.create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: ROOT_CA_CONFIGMAP, namespace: name, annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION } },
          data: { 'ca.crt': this.rootCA },
        });
      } catch (err) {
        // Already there (the cache was behind), or the namespace is going away: nothing to do.
        if (!isAlreadyExists(err) && !isNotFound(err)) throw err;
      }
      return;
    }
    if (upToDate(existing, this.rootCA)) return;
    const cm = structuredClone(existing);
    cm.data = { 'ca.crt': this.rootCA };
    cm.metadata.annotations = { ...cm.metadata.annotations, [DESCRIPTION_ANNOTATION]: DESCRIPTION };
    await client.update(cm);
  }
}
