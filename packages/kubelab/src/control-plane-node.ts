// kubeadm's control-plane node, for both runners: the four static pods
// kubeadm's control-plane and etcd phases write into the node's
// /etc/kubernetes/manifests, the mark-control-plane phase, and the DaemonSet
// addons (kube-proxy, node-problem-detector). The processes are the runner's
// own (local processes, compose services); the pods' containers are stand-ins
// (images in the runtime's catalog) whose probes reach those processes, so the
// API shows their health as on a kubeadm cluster (docs/architecture.md).

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Container, DaemonSet, Node, Pod, Probe, ServiceAccount, Toleration } from '@kubelab/api';
import { createTwoWayMergePatch, isConflict, isNotFound } from '@kubelab/api';
import type { Clientset } from '@kubelab/client';
import { stringify } from 'yaml';
import { createUnlessPresent } from './create-once.js';
import { offHollowNodes } from './hollow.js';
import { NPD_NAMESPACE, NPD_SERVICE_ACCOUNT } from './npd-addon.js';
import { CONTROL_PLANE_LABELS, CONTROL_PLANE_TAINT, type ComponentSpec, type Layout } from './topology.js';

/** kubeadm 1.32's control-plane image tag (the runtime's catalog has these stand-ins). */
export const KUBERNETES_VERSION = 'v1.32.0';
/** The Node Problem Detector's current upstream release (registry.k8s.io/node-problem-detector). */
export const NPD_IMAGE = 'registry.k8s.io/node-problem-detector/node-problem-detector:v0.8.25';
/** NATS in etcd's role: the store's static pod keeps etcd's name with NATS' image. */
const ETCD_IMAGE = 'docker.io/library/nats:2.10';

/** Where a probe reaches the real process. */
export interface ProbeTarget {
  host: string;
  port: number;
  path: string;
  scheme: 'HTTP' | 'HTTPS';
}

export interface StaticPodInput {
  /** kubeadm's pod and container name (etcd, kube-apiserver, …). */
  name: string;
  image: string;
  command: string[];
  /** The stand-in names what it stands for (programs.ts in services/containerd). */
  env: Record<string, string>;
  cpu: string;
  memory?: string;
  health: ProbeTarget;
  /** The apiserver's /readyz. */
  ready?: ProbeTarget;
}

const httpGet = (t: ProbeTarget): Pick<Probe, 'httpGet'> => ({ httpGet: { host: t.host, path: t.path, port: t.port, scheme: t.scheme } });

/**
 * A static pod as kubeadm's manifests write it: hostNetwork, system-node-critical,
 * labels component/tier, startup and liveness probes with kubeadm's timings
 * (readiness every second on the apiserver's /readyz).
 */
export function staticPod(p: StaticPodInput): Pod {
  const container: Container = {
    name: p.name,
    image: p.image,
    imagePullPolicy: 'IfNotPresent',
    command: p.command,
    env: Object.entries(p.env).map(([name, value]) => ({ name, value })),
    resources: { requests: { cpu: p.cpu, ...(p.memory ? { memory: p.memory } : {}) } },
    startupProbe: { ...httpGet(p.health), initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15, failureThreshold: 24 },
    livenessProbe: { ...httpGet(p.health), initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 15, failureThreshold: 8 },
    ...(p.ready ? { readinessProbe: { ...httpGet(p.ready), periodSeconds: 1, timeoutSeconds: 15, failureThreshold: 3 } } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: p.name, namespace: 'kube-system', labels: { component: p.name, tier: 'control-plane' } },
    spec: { hostNetwork: true, priorityClassName: 'system-node-critical', containers: [container] },
  };
}

/**
 * The local runner's four static pods: each command line is the runner's own
 * for that process (what `ps` shows), each probe reaches it on 127.0.0.1 at
 * its --port-offset port.
 */
export function localStaticPods(layout: Layout, specs: readonly ComponentSpec[]): Pod[] {
  const { ports } = layout;
  const lo = '127.0.0.1';
  const args = (name: string) => specs.find((s) => s.name === name)?.args ?? [];
  const env = (process: string) => ({ KUBELAB_COMPONENT_PROCESS: process });
  return [
    staticPod({
      name: 'etcd',
      image: ETCD_IMAGE,
      command: ['nats-server', ...args('nats')],
      env: env('nats'),
      cpu: '100m',
      memory: '100Mi',
      health: { host: lo, port: ports.natsMonitor, path: '/healthz', scheme: 'HTTP' },
    }),
    staticPod({
      name: 'kube-apiserver',
      image: `registry.k8s.io/kube-apiserver:${KUBERNETES_VERSION}`,
      command: ['kube-apiserver', ...args('apiserver')],
      env: env('apiserver'),
      cpu: '250m',
      health: { host: lo, port: ports.apiserver, path: '/livez', scheme: 'HTTPS' },
      ready: { host: lo, port: ports.apiserver, path: '/readyz', scheme: 'HTTPS' },
    }),
    staticPod({
      name: 'kube-controller-manager',
      image: `registry.k8s.io/kube-controller-manager:${KUBERNETES_VERSION}`,
      command: ['kube-controller-manager', ...args('controller-manager')],
      env: env('controller-manager'),
      cpu: '200m',
      health: { host: lo, port: ports.controllerManager, path: '/healthz', scheme: 'HTTPS' },
    }),
    staticPod({
      name: 'kube-scheduler',
      image: `registry.k8s.io/kube-scheduler:${KUBERNETES_VERSION}`,
      command: ['kube-scheduler', ...args('scheduler')],
      env: env('scheduler'),
      cpu: '100m',
      health: { host: lo, port: ports.scheduler, path: '/healthz', scheme: 'HTTPS' },
    }),
  ];
}

/**
 * The compose stack's four static pods (kubelab kubeadm control-plane, run by
 * its one-shot `kubeadm` service): each stands for a compose service, probed
 * by its name; the command lines are kubeadm's flags as the services get
 * them (docker-compose.yml's environment).
 */
export function composeStaticPods(): Pod[] {
  const at = (host: string, port: number, path: string, scheme: ProbeTarget['scheme']): ProbeTarget => ({ host, port, path, scheme });
  return [
    staticPod({
      name: 'etcd',
      image: ETCD_IMAGE,
      command: ['nats-server', '-c', '/etc/nats/nats.conf'],
      env: { KUBELAB_COMPONENT_SERVICE: 'nats' },
      cpu: '100m',
      memory: '100Mi',
      health: at('nats', 8222, '/healthz', 'HTTP'),
    }),
    staticPod({
      name: 'kube-apiserver',
      image: `registry.k8s.io/kube-apiserver:${KUBERNETES_VERSION}`,
      command: [
        'kube-apiserver',
        '--nats-url=nats://nats:4222',
        '--etcd-cafile=/etc/kubernetes/pki/etcd/ca.crt',
        '--etcd-certfile=/etc/kubernetes/pki/apiserver-etcd-client.crt',
        '--etcd-keyfile=/etc/kubernetes/pki/apiserver-etcd-client.key',
        '--secure-port=6443',
        '--grpc-port=6444',
        '--tls-cert-file=/etc/kubernetes/pki/apiserver.crt',
        '--tls-private-key-file=/etc/kubernetes/pki/apiserver.key',
        '--client-ca-file=/etc/kubernetes/pki/ca.crt',
        '--kubelet-client-certificate=/etc/kubernetes/pki/apiserver-kubelet-client.crt',
        '--kubelet-client-key=/etc/kubernetes/pki/apiserver-kubelet-client.key',
        '--encryption-provider-config=/etc/kubernetes/encryption-config.yaml',
        '--component-status-url=scheduler=https://scheduler:10259/healthz',
        '--component-status-url=controller-manager=https://controller-manager:10257/healthz',
        '--authentication-config=/etc/kubernetes/authentication-config.yaml',
        '--authorization-mode=Node,RBAC',
        '--enable-admission-plugins=NodeRestriction',
        '--service-account-signing-key-file=/etc/kubernetes/pki/sa.key',
        '--service-account-key-file=/etc/kubernetes/pki/sa.pub',
        '--service-cluster-ip-range=10.96.0.0/12',
        '--default-not-ready-toleration-seconds=300',
        '--default-unreachable-toleration-seconds=300',
        '--proxy-client-cert-file=/etc/kubernetes/pki/front-proxy-client.crt',
        '--proxy-client-key-file=/etc/kubernetes/pki/front-proxy-client.key',
        '--requestheader-client-ca-file=/etc/kubernetes/pki/front-proxy-ca.crt',
        '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-username-headers=X-Remote-User',
      ],
      env: { KUBELAB_COMPONENT_SERVICE: 'apiserver' },
      cpu: '250m',
      health: at('apiserver', 6443, '/livez', 'HTTPS'),
      ready: at('apiserver', 6443, '/readyz', 'HTTPS'),
    }),
    staticPod({
      name: 'kube-controller-manager',
      image: `registry.k8s.io/kube-controller-manager:${KUBERNETES_VERSION}`,
      command: [
        'kube-controller-manager',
        '--apiserver-grpc-address=apiserver:6444',
        '--kubeconfig=/etc/kubernetes/controller-manager.conf',
        '--authentication-kubeconfig=/etc/kubernetes/controller-manager.conf',
        '--authorization-kubeconfig=/etc/kubernetes/controller-manager.conf',
        '--allocate-node-cidrs=true',
        '--cluster-cidr=10.244.0.0/16',
        '--leader-elect=true',
        '--node-monitor-grace-period=50s',
      ],
      env: { KUBELAB_COMPONENT_SERVICE: 'controller-manager' },
      cpu: '200m',
      health: at('controller-manager', 10257, '/healthz', 'HTTPS'),
    }),
    staticPod({
      name: 'kube-scheduler',
      image: `registry.k8s.io/kube-scheduler:${KUBERNETES_VERSION}`,
      command: [
        'kube-scheduler',
        '--apiserver-grpc-address=apiserver:6444',
        '--kubeconfig=/etc/kubernetes/scheduler.conf',
        '--authentication-kubeconfig=/etc/kubernetes/scheduler.conf',
        '--authorization-kubeconfig=/etc/kubernetes/scheduler.conf',
        '--leader-elect=true',
      ],
      env: { KUBELAB_COMPONENT_SERVICE: 'scheduler' },
      cpu: '100m',
      health: at('scheduler', 10259, '/healthz', 'HTTPS'),
    }),
  ];
}

/** What kubeadm prints per manifest it writes. */
export function manifestLine(name: string, dir: string): string {
  return name === 'etcd' ? `[etcd] Creating static Pod manifest for local etcd in "${dir}"` : `[control-plane] Creating static Pod manifest for "${name}"`;
}

/** kubeadm's control-plane and etcd phases: one <name>.yaml per static pod in the node's staticPodPath. */
export async function writeStaticPods(dir: string, pods: readonly Pod[], log: (line: string) => void = () => {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  log(`[control-plane] Using manifest folder "${dir}"`);
  for (const pod of pods) {
    const name = pod.metadata!.name!;
    log(manifestLine(name, dir));
    await writeFile(join(dir, `${name}.yaml`), stringify(pod), { mode: 0o600 });
  }
}

/** Tolerates every taint (kubeadm's kube-proxy): a pod on every node, the control-plane's too. */
const EVERYWHERE: Toleration[] = [{ operator: 'Exists' }];

/** Which runner the DaemonSets' stand-ins live in: the local runner's are node units, compose's node containers. */
export type Runner = 'local' | 'compose';

/**
 * kubeadm's kube-proxy addon: ServiceAccount and DaemonSet. In compose a
 * liveness probe on :10256 reaches the node's kube-proxy container (each node
 * has its network namespace); the local runner's has none, as kubeadm's
 * manifest: one template cannot name each local node's shifted healthz port.
 */
export function kubeProxyAddon(runner: Runner): { serviceAccount: ServiceAccount; daemonSet: DaemonSet } {
  const labels = { 'k8s-app': 'kube-proxy' };
  return {
    serviceAccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kube-proxy', namespace: 'kube-system' } },
    daemonSet: {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'kube-proxy', namespace: 'kube-system', labels },
      spec: {
        selector: { matchLabels: labels },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
        template: {
          metadata: { labels },
          spec: {
            hostNetwork: true,
            priorityClassName: 'system-node-critical',
            serviceAccountName: 'kube-proxy',
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: EVERYWHERE,
            containers: [
              {
                name: 'kube-proxy',
                image: `registry.k8s.io/kube-proxy:${KUBERNETES_VERSION}`,
                imagePullPolicy: 'IfNotPresent',
                command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
                env: [nodeNameEnv(), ...unitEnv(runner, 'kube-proxy')],
                securityContext: { privileged: true },
                ...(runner === 'compose'
                  ? {
                      livenessProbe: { httpGet: { path: '/healthz', port: 10256, scheme: 'HTTP' }, initialDelaySeconds: 10, periodSeconds: 10, failureThreshold: 3 },
                      volumeMounts: [{ name: 'kube-proxy', mountPath: '/var/lib/kube-proxy' }],
                    }
                  : {}),
              },
            ],
            // kube-proxy's ConfigMap, which each kube-proxy publishes (the local runner's pods mount nothing).
            ...(runner === 'compose' ? { volumes: [{ name: 'kube-proxy', configMap: { name: 'kube-proxy' } }] } : {}),
          },
        },
      },
    },
  };
}

/** Tells a local runner's stand-in which node unit it stands for (programs.ts); compose's name their node container. */
const unitEnv = (runner: Runner, unit: string) => (runner === 'local' ? [{ name: 'KUBELAB_COMPONENT_UNIT', value: unit }] : []);

const nodeNameEnv = () => ({ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });

/**
 * Upstream's deployment/node-problem-detector.yaml: linux nodes, every
 * NoSchedule/NoExecute taint tolerated, 10m/80Mi, privileged, NODE_NAME, the
 * ServiceAccount (npd-addon.ts). Its hostPath and config volumes are left
 * out: the stand-in reads nothing, the node's node-problem-detector unit does.
 */
export function npdDaemonSet(runner: Runner): DaemonSet {
  const labels = { app: 'node-problem-detector' };
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'node-problem-detector', namespace: NPD_NAMESPACE, labels },
    spec: {
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          affinity: {
            nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }] } },
          },
          // A per-node add-on: never a preemption victim of workloads, nor fighting them for space freed for a nominated pod.
          priorityClassName: 'system-node-critical',
          serviceAccountName: NPD_SERVICE_ACCOUNT,
          containers: [
            {
              name: 'node-problem-detector',
              image: NPD_IMAGE,
              imagePullPolicy: 'IfNotPresent',
              command: ['/node-problem-detector', '--logtostderr', '--config.system-log-monitor=/config/kernel-monitor.json,/config/readonly-monitor.json,/config/systemd-monitor.json'],
              resources: { limits: { cpu: '10m', memory: '80Mi' }, requests: { cpu: '10m', memory: '80Mi' } },
              securityContext: { privileged: true },
              env: [nodeNameEnv(), ...unitEnv(runner, 'node-problem-detector')],
            },
          ],
          tolerations: [
            { effect: 'NoSchedule', operator: 'Exists' },
            { effect: 'NoExecute', operator: 'Exists' },
          ],
        },
      },
    },
  };
}

/**
 * kubeadm's addons phase: kube-proxy, then the Node Problem Detector's
 * DaemonSet (its ServiceAccount comes from npd-addon.ts); with `hollow`, both
 * kept off the hollow nodes (offHollowNodes).
 */
export async function applyDaemonSetAddons(cs: Clientset, runner: Runner, log: (line: string) => void = () => {}, hollow = false): Promise<void> {
  const place = hollow ? offHollowNodes : (ds: DaemonSet) => ds;
  const kp = kubeProxyAddon(runner);
  await createUnlessPresent(() => cs.core.serviceAccounts('kube-system').create(kp.serviceAccount));
  await createUnlessPresent(() => cs.apps.daemonSets('kube-system').create(place(kp.daemonSet)));
  log('[addons] Applied essential addon: kube-proxy');
  await createUnlessPresent(() => cs.apps.daemonSets(NPD_NAMESPACE).create(place(npdDaemonSet(runner))));
  log('[addons] Applied addon: node-problem-detector (DaemonSet kube-system/node-problem-detector)');
}

/** kubeadm's mark-control-plane phase once the node registered: its labels and taint (kept when there). */
export async function markControlPlane(cs: Clientset, node: string, log: (line: string) => void = () => {}, cancelled: () => boolean = () => false): Promise<boolean> {
  log(`[mark-control-plane] Waiting for node ${node} to register`);
  while (!cancelled()) {
    try {
      const n = await cs.core.nodes().get(node);
      const taints = n.spec?.taints ?? [];
      const has = taints.some((t) => t.key === CONTROL_PLANE_TAINT.key && t.effect === CONTROL_PLANE_TAINT.effect);
      // kubeadm's apiclient.PatchNode: a strategic merge patch from the Node it read to the marked one.
      const marked: Node = {
        ...n,
        metadata: { ...n.metadata, labels: { ...n.metadata?.labels, ...CONTROL_PLANE_LABELS } },
        spec: { ...n.spec, taints: has ? taints : [...taints, { ...CONTROL_PLANE_TAINT }] },
      };
      await cs.core.nodes().patch(node, 'strategic', createTwoWayMergePatch(n, marked, 'Node'));
      log(`[mark-control-plane] Marking the node ${node} as control-plane by adding the labels: [${Object.keys(CONTROL_PLANE_LABELS).join(' ')}]`);
      log(`[mark-control-plane] Marking the node ${node} as control-plane by adding the taints [${CONTROL_PLANE_TAINT.key}:${CONTROL_PLANE_TAINT.effect}]`);
      return true;
    } catch (e) {
      if (!isNotFound(e) && !isConflict(e)) throw e;
    }
    // kubeadm polls the Node every 500 ms (it has no watch here either).
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}
