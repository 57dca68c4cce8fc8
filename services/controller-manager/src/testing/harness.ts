// Test helpers: a real nats-server + apiserver (from @kubelab/apiserver/testing)
// with a controller-manager on free ports, and small builders.

import { formatTime, type Deployment, type Node, type Pod } from '@kubelab/api';
import { createClientset, type Clientset } from '@kubelab/client';
import { createLogger } from '@kubelab/component-base';
import { startTestCluster, type TestCluster } from '@kubelab/apiserver/testing';
import { startControllerManager, type ControllerManagerOptions, type RunningControllerManager } from '../controller-manager.js';

export const quietLogger = (component = 'kube-controller-manager') => createLogger({ component, level: (process.env.KUBELAB_TEST_LOG_LEVEL as 'info' | undefined) ?? 'error' });

export interface Env {
  cluster: TestCluster;
  cs: Clientset;
  startCm(o?: ControllerManagerOptions): Promise<RunningControllerManager>;
  cleanup(): Promise<void>;
}

/** A real apiserver (options as startTestCluster takes them, e.g. Node,RBAC and a ServiceAccount signing key) and a controller-manager starter. */
export async function startEnv(apiserver: Parameters<typeof startTestCluster>[0] = {}): Promise<Env> {
  const cluster = await startTestCluster(apiserver);
  const cs = createClientset({ ...cluster.clientConfig, component: 'test' });
  const cms: RunningControllerManager[] = [];
  return {
    cluster,
    cs,
    async startCm(o = {}) {
      const cm = await startControllerManager({
        apiserverAddress: cluster.grpcAddress,
        apiserverTls: (await cluster.clientConfigFor({ commonName: 'system:kube-controller-manager' })).tls,
        bindAddress: '127.0.0.1',
        securePort: 0,
        leaderElect: false,
        logger: quietLogger(),
        ...o,
      });
      cms.push(cm);
      return cm;
    },
    async cleanup() {
      await Promise.all(cms.map((c) => c.stop()));
      cs.close();
      await cluster.cleanup();
    },
  };
}

/** The kubelet's part, done by hand: bind, run, and report Ready (or not) through pods/status. */
export async function setPodReady(cs: Clientset, pod: Pod, ready: boolean, node = 'node-1', ip?: string): Promise<Pod> {
  const now = formatTime(Date.now());
  const cur = await cs.core.pods(pod.metadata.namespace ?? 'default').get(pod.metadata.name ?? '');
  const copy = structuredClone(cur);
  copy.status = {
    ...(copy.status ?? {}),
    phase: 'Running',
    ...(ip ? { podIP: ip, podIPs: [{ ip }] } : {}),
    conditions: [
      { type: 'PodScheduled', status: 'True', lastTransitionTime: now },
      { type: 'Ready', status: ready ? 'True' : 'False', lastTransitionTime: now },
    ],
  };
  void node;
  return cs.core.pods(copy.metadata.namespace ?? 'default').updateStatus(copy);
}

export function deployment(
  name: string,
  o: { replicas?: number; image?: string; maxSurge?: number | string; maxUnavailable?: number | string; strategy?: 'Recreate' | 'RollingUpdate'; minReadySeconds?: number } = {},
): Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: o.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      ...(o.minReadySeconds ? { minReadySeconds: o.minReadySeconds } : {}),
      strategy: o.strategy === 'Recreate' ? { type: 'Recreate' } : { type: 'RollingUpdate', rollingUpdate: { maxSurge: o.maxSurge ?? '25%', maxUnavailable: o.maxUnavailable ?? '25%' } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: o.image ?? 'nginx:1.25' }] },
      },
    },
  };
}

export function node(name: string, o: { labels?: Record<string, string>; ready?: 'True' | 'False' | 'Unknown' } = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(o.labels ?? {}) } },
    spec: {},
  };
}
