// Per-write cost of keeping managedFields (`npx vitest bench --run src/registry/fieldmanager`),
// beside what every write already pays (one JSON.parse and one JSON.stringify of the object).

import { bench, describe } from 'vitest';
import { RESOURCES, type KubeObject, type ResourceInfo } from '@kubelab/api';
import { FieldManager } from './fieldmanager.js';

type Obj = KubeObject & Record<string, unknown>;
const pods = new FieldManager(RESOURCES.find((r) => r.resource === 'pods')! as ResourceInfo);
const deployments = new FieldManager(RESOURCES.find((r) => r.resource === 'deployments')! as ResourceInfo);

const container = (name: string) => ({
  name,
  image: 'nginx:1.27',
  ports: [{ containerPort: 80, protocol: 'TCP' }],
  env: [
    { name: 'A', value: '1' },
    { name: 'B', value: '2' },
  ],
  resources: { requests: { cpu: '100m', memory: '64Mi' } },
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'File',
  imagePullPolicy: 'IfNotPresent',
});
const podSpec = {
  containers: [container('web'), container('sidecar')],
  restartPolicy: 'Always',
  terminationGracePeriodSeconds: 30,
  dnsPolicy: 'ClusterFirst',
  schedulerName: 'default-scheduler',
  nodeName: 'node-1',
};
const condition = (type: string, status: string) => ({ type, status, lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' });

const freeze = <T>(o: T): T => {
  if (typeof o === 'object' && o !== null) {
    for (const v of Object.values(o)) freeze(v);
    Object.freeze(o);
  }
  return o;
};
const clone = (o: unknown): Obj => JSON.parse(JSON.stringify(o)) as Obj;

const podObj = clone({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-1', namespace: 'default', labels: { app: 'web', 'pod-template-hash': 'abc' }, uid: 'u', resourceVersion: '1' },
  spec: podSpec,
});
pods.update(undefined, podObj, { manager: 'kube-controller-manager' }, '2026-01-01T00:00:00Z');
const running = clone(podObj);
running.status = {
  phase: 'Running',
  conditions: [condition('Ready', 'True'), condition('PodScheduled', 'True')],
  podIP: '10.0.0.5',
  containerStatuses: [{ name: 'web', ready: true, restartCount: 0 }],
};
pods.update(podObj, running, { manager: 'kubelet', subresource: 'status' }, '2026-01-01T00:00:01Z');
const livePod = freeze(clone(running));
const nextStatus = clone(livePod);
(nextStatus.status as { conditions: { status: string }[] }).conditions[0]!.status = 'False';

const deploy = clone({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: podSpec } },
});
const applied = clone(deploy);
deployments.applyCreate(applied, { manager: 'kubectl' }, '2026-01-01T00:00:00Z');
const liveDeploy = freeze(clone(applied));

describe('per write', () => {
  bench('baseline: JSON.parse + JSON.stringify of the pod (every write does this)', () => {
    JSON.stringify(clone(livePod));
  });
  bench('Update, pod status (kubelet: one condition changed)', () => {
    const next = { ...nextStatus, metadata: { ...nextStatus.metadata } } as Obj;
    pods.update(livePod, next, { manager: 'kubelet', subresource: 'status' }, '2026-01-01T00:00:02Z');
  });
  bench('Update, pod unchanged (no-op write)', () => {
    const next = { ...livePod, metadata: { ...livePod.metadata } } as Obj;
    pods.update(livePod, next, { manager: 'kubelet', subresource: 'status' }, '2026-01-01T00:00:02Z');
  });
  bench('create (Update from nothing), pod: its shape remembered', () => {
    const o = { ...podObj, metadata: { name: 'web-1', namespace: 'default' } } as Obj;
    pods.update(undefined, o, { manager: 'kube-controller-manager' }, '2026-01-01T00:00:00Z');
  });
  bench('create, pod, the general Update (managedFields sent empty: every field walked and encoded)', () => {
    const o = { ...podObj, metadata: { name: 'web-1', namespace: 'default', managedFields: [{}] } } as Obj;
    pods.update(undefined, o, { manager: 'kube-controller-manager' }, '2026-01-01T00:00:00Z');
  });
  bench('Apply, deployment, replicas changed', () => {
    const config = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { ...(deploy.spec as object), replicas: 4 } } as Obj;
    deployments.apply(liveDeploy, clone(liveDeploy), config, { manager: 'kubectl' }, false, '2026-01-01T00:00:03Z');
  });
});
