// Objects the tests seed as other components would write them: a node and
// its lease (kubelet), pods with status (kubelet), events, the kube-proxy
// ConfigMap.

import { formatMicroTime, formatTime, type KubeObject } from '@kubelab/api';

export const iso = (msAgo: number): string => formatTime(Date.now() - msAgo);
const MIN = 60_000;

export function node(name: string, opts: { kubeletPort?: number; ready?: 'True' | 'False' } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'node-role.kubernetes.io/control-plane': '' } },
    spec: { podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'], taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
    status: {
      capacity: { cpu: '2', memory: '4012Mi', pods: '110' },
      allocatable: { cpu: '2', memory: '3912Mi', pods: '110' },
      conditions: [
        {
          type: 'MemoryPressure',
          status: 'False',
          lastHeartbeatTime: iso(MIN),
          lastTransitionTime: iso(60 * MIN),
          reason: 'KubeletHasSufficientMemory',
          message: 'kubelet has sufficient memory available',
        },
        { type: 'Ready', status: opts.ready ?? 'True', lastHeartbeatTime: iso(MIN), lastTransitionTime: iso(60 * MIN), reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      addresses: [
        { type: 'InternalIP', address: '127.0.0.1' },
        { type: 'Hostname', address: name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: opts.kubeletPort ?? 10250 } },
      nodeInfo: {
        machineID: 'kubelab-machine',
        systemUUID: 'kubelab-uuid',
        bootID: 'kubelab-boot',
        kernelVersion: '6.1.0-kubelab',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        containerRuntimeVersion: 'containerd://1.7.24-kubelab',
        kubeletVersion: 'v1.32.4-kubelab',
        kubeProxyVersion: 'v1.32.4-kubelab',
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  } as KubeObject;
}

export function lease(nodeName: string): KubeObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: nodeName, namespace: 'kube-node-lease' },
    spec: { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime: formatMicroTime(Date.now()) },
  } as KubeObject;
}

export function runningPod(name: string, opts: { namespace?: string; node?: string; ip?: string; restarts?: number; labels?: Record<string, string> } = {}): KubeObject {
  const restarts = opts.restarts ?? 0;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: opts.namespace ?? 'default', labels: opts.labels ?? { run: name } },
    spec: { nodeName: opts.node ?? 'node-1', containers: [{ name, image: 'nginx:1.27', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
    status: {
      phase: 'Running',
      hostIP: '127.0.0.1',
      podIP: opts.ip ?? '10.244.0.5',
      podIPs: [{ ip: opts.ip ?? '10.244.0.5' }],
      startTime: iso(30 * MIN),
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Ready', status: 'True' },
        { type: 'ContainersReady', status: 'True' },
        { type: 'PodScheduled', status: 'True' },
      ],
      containerStatuses: [
        {
          name,
          ready: true,
          started: true,
          restartCount: restarts,
          image: 'docker.io/library/nginx:1.27',
          imageID: 'docker.io/library/nginx@sha256:0000',
          containerID: 'containerd://abc',
          state: { running: { startedAt: iso(15 * MIN) } },
          ...(restarts ? { lastState: { terminated: { exitCode: 137, reason: 'Error', startedAt: iso(20 * MIN), finishedAt: iso(15 * MIN) } } } : {}),
        },
      ],
    },
  } as KubeObject;
}

export function event(name: string, involved: KubeObject, opts: { reason: string; message: string; type?: string; component: string; lastMsAgo: number; count?: number }): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: involved.metadata.namespace ?? 'default' },
    involvedObject: { kind: involved.kind, name: involved.metadata.name, namespace: involved.metadata.namespace, uid: involved.metadata.uid, apiVersion: 'v1' },
    reason: opts.reason,
    message: opts.message,
    source: { component: opts.component, host: 'node-1' },
    firstTimestamp: iso(opts.lastMsAgo + ((opts.count ?? 1) > 1 ? MIN : 0)),
    lastTimestamp: iso(opts.lastMsAgo),
    count: opts.count ?? 1,
    type: opts.type ?? 'Normal',
  } as KubeObject;
}

export const kubeProxyConfigMap: KubeObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'kube-proxy', namespace: 'kube-system', labels: { app: 'kube-proxy' } },
  data: {
    'config.conf': ['apiVersion: kubeproxy.config.k8s.io/v1alpha1', 'kind: KubeProxyConfiguration', 'clusterCIDR: 10.244.0.0/16', 'mode: iptables', ''].join('\n'),
  },
} as KubeObject;

/** kube-proxy's DaemonSet as kubeadm installs it, with the status its controller writes for `nodes` nodes. */
export function kubeProxyDaemonSet(nodes: number): KubeObject {
  const labels = { 'k8s-app': 'kube-proxy' };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'kube-proxy', namespace: 'kube-system', labels },
    spec: {
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.32.4' }] } },
    },
    status: { desiredNumberScheduled: nodes, currentNumberScheduled: nodes, numberReady: nodes, updatedNumberScheduled: nodes, numberAvailable: nodes, numberMisscheduled: 0, observedGeneration: 1 },
  } as KubeObject;
}
