// A tiny operator as a learner writes one with the official JavaScript
// client (@kubernetes/client-node): it installs its CRD, waits for it to be
// Established, runs an informer on the custom resource and reconciles one
// ConfigMap per CronTab (created, updated with the schedule, deleted with
// it), all against kubelab's apiserver over HTTPS with the admin kubeconfig.

import { join } from 'node:path';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  makeInformer,
  PatchStrategy,
  setHeaderOptions,
  type KubernetesObject,
  type V1ConfigMap,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { requireTool, waitFor } from '@kubelab/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../kubectl/harness.js';

const GROUP = 'stable.example.com';
const VERSION = 'v1';
const PLURAL = 'crontabs';
const NS = 'default';

interface CronTab extends KubernetesObject {
  spec?: { cronSpec?: string; image?: string };
}

const crd: V1CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${PLURAL}.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: PLURAL, singular: 'crontab', kind: 'CronTab', shortNames: ['ct'] },
    versions: [
      {
        name: VERSION,
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, image: { type: 'string' } } } } } },
      },
    ],
  },
};

const isNotFound = (e: unknown) => (e as { code?: number }).code === 404;

/** The operator: one ConfigMap `<crontab>-schedule` per CronTab, holding its schedule and owned by it. */
class CronTabOperator {
  constructor(
    private readonly core: CoreV1Api,
    private readonly custom: CustomObjectsApi,
  ) {}

  /** Brings the ConfigMap of one CronTab to what the CronTab asks (idempotent). */
  async reconcile(name: string): Promise<void> {
    let tab: CronTab | undefined;
    try {
      tab = (await this.custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name })) as CronTab;
    } catch (e) {
      if (!isNotFound(e)) throw e;
    }
    const cmName = `${name}-schedule`;
    if (!tab) {
      await this.core.deleteNamespacedConfigMap({ name: cmName, namespace: NS }).catch((e: unknown) => {
        if (!isNotFound(e)) throw e;
      });
      return;
    }
    const want: V1ConfigMap = {
      metadata: {
        name: cmName,
        namespace: NS,
        ownerReferences: [{ apiVersion: `${GROUP}/${VERSION}`, kind: 'CronTab', name, uid: tab.metadata!.uid!, controller: true }],
      },
      data: { schedule: tab.spec?.cronSpec ?? '', image: tab.spec?.image ?? '' },
    };
    try {
      const cur = await this.core.readNamespacedConfigMap({ name: cmName, namespace: NS });
      if (JSON.stringify(cur.data) !== JSON.stringify(want.data)) {
        await this.core.replaceNamespacedConfigMap({ name: cmName, namespace: NS, body: { ...want, metadata: { ...want.metadata, resourceVersion: cur.metadata!.resourceVersion! } } });
      }
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await this.core.createNamespacedConfigMap({ namespace: NS, body: want });
    }
  }
}

describe.runIf(requireTool('nats-server'))('a tiny operator with @kubernetes/client-node', { timeout: 60_000 }, () => {
  let c: Cluster;
  let kc: KubeConfig;
  let stopInformer: (() => Promise<void>) | undefined;
  const errors: unknown[] = [];

  beforeAll(async () => {
    c = await startCluster({ authorizationModes: ['Node', 'RBAC'] });
    kc = new KubeConfig();
    kc.loadFromFile(join(c.dir, 'kubeconfig'));
  }, 60_000);

  afterAll(async () => {
    await stopInformer?.();
    await c?.stop();
  });

  it('installs its CRD and waits for Established', async () => {
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({ body: crd });
    const established = await waitFor('the CRD to be Established', async () => {
      const got = await ext.readCustomResourceDefinition({ name: `${PLURAL}.${GROUP}` });
      return got.status?.conditions?.find((x) => x.type === 'Established' && x.status === 'True');
    });
    expect(established.reason).toBe('InitialNamesAccepted');
  });

  it('an informer on the custom resource drives a ConfigMap per CronTab', async () => {
    const core = kc.makeApiClient(CoreV1Api);
    const custom = kc.makeApiClient(CustomObjectsApi);
    const operator = new CronTabOperator(core, custom);
    // The learner's loop: every event reconciles the object's name, one at a time.
    let queue = Promise.resolve();
    const enqueue = (o: CronTab) => {
      queue = queue.then(() => operator.reconcile(o.metadata!.name!)).catch((e: unknown) => void errors.push(e));
    };
    const informer = makeInformer<CronTab>(kc, `/apis/${GROUP}/${VERSION}/namespaces/${NS}/${PLURAL}`, () =>
      custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL }),
    );
    informer.on('add', enqueue);
    informer.on('update', enqueue);
    informer.on('delete', enqueue);
    informer.on('error', (e) => void errors.push(e));
    await informer.start();
    stopInformer = () => informer.stop();

    const tab = await custom.createNamespacedCustomObject({
      group: GROUP,
      version: VERSION,
      namespace: NS,
      plural: PLURAL,
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'CronTab', metadata: { name: 'nightly' }, spec: { cronSpec: '0 3 * * *', image: 'backup:1' } },
    });
    const cm = await waitFor('the ConfigMap of the CronTab', () => core.readNamespacedConfigMap({ name: 'nightly-schedule', namespace: NS }).catch(() => undefined));
    expect(cm.data).toEqual({ schedule: '0 3 * * *', image: 'backup:1' });
    expect(cm.metadata?.ownerReferences).toEqual([{ apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'nightly', uid: (tab as CronTab).metadata!.uid, controller: true }]);

    // A JSON merge patch (custom resources take no strategic merge patch, as upstream).
    await custom.patchNamespacedCustomObject(
      { group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name: 'nightly', body: { spec: { cronSpec: '0 4 * * *' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await waitFor('the ConfigMap to follow the schedule', async () => (await core.readNamespacedConfigMap({ name: 'nightly-schedule', namespace: NS })).data?.schedule === '0 4 * * *');

    await custom.deleteNamespacedCustomObject({ group: GROUP, version: VERSION, namespace: NS, plural: PLURAL, name: 'nightly' });
    await waitFor('the ConfigMap to go with the CronTab', () => core.readNamespacedConfigMap({ name: 'nightly-schedule', namespace: NS }).then(() => false, isNotFound));
    expect(errors).toEqual([]);
  });
});
