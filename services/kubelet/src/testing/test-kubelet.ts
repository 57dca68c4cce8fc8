// A Kubelet for unit tests of its sync functions (upstream kubelet_test.go
// newTestKubelet): wired to the in-memory CRI runtime, the fake clientset,
// the fake event recorder and a FakeClock, with pod workers that only record
// what they were asked, so a test calls syncPod itself. Nothing listens,
// dials or waits on a real timer; start() is never called.

import type { Node, Pod, PodStatus } from '@kubelab/api';
import { SharedInformerFactory, type GroupVersionResource } from '@kubelab/client';
import { FakeClock, FakeRecorder, createFakeClientset, type FakeClientset } from '@kubelab/client/testing';
import { createLogger } from '@kubelab/component-base';
import { Kubelet, type KubeletConfig } from '../kubelet.js';
import type { PodWorkerQueue, UpdateOptions } from '../pod-workers.js';
import { FakeRuntimeService } from './fake-runtime.js';
import { MACHINE } from './machine.js';

const PODS: GroupVersionResource = { group: '', version: 'v1', resource: 'pods' };
const NODES: GroupVersionResource = { group: '', version: 'v1', resource: 'nodes' };

export const TEST_NODE = 'node-1';

/** Pod workers that record each request; termination signals behave as the real ones. */
export class FakePodWorkers implements PodWorkerQueue {
  /** `uid` or `uid terminate`, in order. */
  readonly updates: string[] = [];
  private readonly terminations = new Map<string, AbortController>();
  readonly forgotten: string[] = [];

  update(uid: string, opts: UpdateOptions = {}): void {
    this.updates.push(opts.terminate ? `${uid} terminate` : uid);
    if (!this.terminations.has(uid)) this.terminations.set(uid, new AbortController());
    if (opts.terminate) this.terminations.get(uid)!.abort();
  }

  terminationSignal(uid: string): AbortSignal | undefined {
    return this.terminations.get(uid)?.signal;
  }

  forget(uid: string): void {
    this.forgotten.push(uid);
    this.terminations.delete(uid);
  }

  known(): string[] {
    return [...this.terminations.keys()];
  }

  whenIdle(): Promise<void> {
    return Promise.resolve();
  }

  stop(): void {}
}

export interface TestKubelet {
  kubelet: Kubelet;
  runtime: FakeRuntimeService;
  api: FakeClientset;
  clock: FakeClock;
  /** Events as `<type> <reason> <message>`. */
  recorder: FakeRecorder;
  workers: FakePodWorkers;
  /** The kubelet's error lines (klog text: `E0101 00:00:00.000000 … "msg" key="value"`). */
  errorLogs: string[];
  /** Stores the pod in the API and hands it to the kubelet as its informer would; returns it as stored. */
  addApiPod(pod: Pod): Pod;
  /** Registers the Node (so static pods get mirror pods) without talking to the runtime. */
  addNode(): Node;
  /** A PLEG relist: what changed in the runtime since the last one makes those pods' cached status stale. */
  relist(): Promise<void>;
  /** The status the kubelet wrote for an API pod, once its status writes are done. */
  writtenStatus(namespace: string, name: string): Promise<PodStatus | undefined>;
}

export interface TestKubeletOptions {
  config?: Partial<KubeletConfig>;
  /** Whether every pod source has delivered its first set (default true: removed pods are cleaned up). */
  sourcesReady?: boolean;
}

export function newTestKubelet(opts: TestKubeletOptions = {}): TestKubelet {
  const clock = new FakeClock('2026-01-01T00:00:00Z');
  const api = createFakeClientset(() => clock.now());
  const runtime = new FakeRuntimeService(clock);
  const recorder = new FakeRecorder();
  const workers = new FakePodWorkers();
  const errorLogs: string[] = [];
  const kubelet = new Kubelet({
    config: {
      nodeName: TEST_NODE,
      nodeIP: '192.168.0.10',
      nodeLabels: {},
      // kubeadm's KubeletConfiguration: ClusterFirst pods get the cluster DNS.
      clusterDNS: ['10.96.0.10'],
      clusterDomain: 'cluster.local',
      podManifestPath: '',
      podLogsDir: '/nonexistent/kubelet-test/pods',
      // Never created: removing a pod's directory there finds nothing.
      rootDir: '/nonexistent/kubelet-test/root',
      kubeletPort: 10250,
      maxPods: 110,
      nodeStatusUpdateFrequencyMs: 10_000,
      nodeStatusReportFrequencyMs: 300_000,
      nodeLeaseDurationSeconds: 40,
      fileCheckFrequencyMs: 20_000,
      syncFrequencyMs: 60_000,
      timeScale: 1,
      registerNode: false,
      featureGates: {},
      ...opts.config,
    },
    clientset: api.clientset,
    informers: new SharedInformerFactory(api.clientset),
    runtime,
    broadcaster: { newRecorder: () => recorder },
    log: createLogger({ component: 'kubelet', level: 'error', format: 'text', style: 'klog', write: (l) => void errorLogs.push(l) }),
    clock,
    machine: MACHINE,
    podWorkers: () => workers,
    managedHostsFile: false,
  });
  if (opts.sourcesReady ?? true) kubelet.markSourcesReady();
  return {
    kubelet,
    runtime,
    api,
    clock,
    recorder,
    workers,
    errorLogs,
    addApiPod(pod) {
      const bound: Pod = { ...pod, spec: { ...pod.spec!, nodeName: TEST_NODE } };
      api.seed(PODS, bound);
      const stored = api.peek<Pod>(PODS, pod.metadata.namespace ?? 'default', pod.metadata.name ?? '')!;
      kubelet.onApiPod(stored);
      return stored;
    },
    addNode() {
      const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: TEST_NODE }, spec: {} };
      api.seed(NODES, node);
      const stored = api.peek<Node>(NODES, '', TEST_NODE)!;
      kubelet.nodeStatus.observe(stored);
      return stored;
    },
    relist: () => kubelet.pleg.relist(),
    async writtenStatus(namespace, name) {
      await kubelet.statusManager.whenIdle();
      return api.peek<Pod>(PODS, namespace, name)?.status;
    },
  };
}
