// kube-controller-manager's flags with upstream names and defaults, and the
// config the controllers read (durations in milliseconds).

import { FlagError, FlagSet, withApiserverFlags, withLeaderElectionFlags, withSecureServingFlags } from '@kubelab/component-base';
import { addTracingFlags } from '@kubelab/tracing';

export function controllerManagerFlags() {
  return withSecureServingFlags(withLeaderElectionFlags(addTracingFlags(withApiserverFlags(new FlagSet('kube-controller-manager'))), 'kube-controller-manager'))
    .string('bind-address', '0.0.0.0', 'The IP address on which to listen for the --secure-port port')
    .int('secure-port', 10257, 'The port on which to serve HTTPS with authentication and authorization (/healthz, /livez, /readyz, /metrics). 0 picks a free port')
    .stringArray(
      'controllers',
      ['*'],
      "A list of controllers to enable. '*' enables all on-by-default controllers, 'foo' enables the controller named 'foo', '-foo' disables the controller named 'foo'",
    )
    .duration('node-monitor-period', 5_000, 'The period for syncing NodeStatus in cloud-node-lifecycle-controller')
    .duration('node-monitor-grace-period', 50_000, 'Amount of time which we allow running Node to be unresponsive before marking it unhealthy')
    .duration('node-startup-grace-period', 60_000, 'Amount of time which we allow starting Node to be unresponsive before marking it unhealthy')
    .float('node-eviction-rate', 0.1, 'Number of nodes per second on which pods are deleted in case of node failure when a zone is healthy')
    .float('secondary-node-eviction-rate', 0.01, 'Number of nodes per second on which pods are deleted in case of node failure when a zone is unhealthy')
    .int('large-cluster-size-threshold', 50, 'Number of nodes from which node-lifecycle-controller treats the cluster as large for the eviction logic purposes')
    .float('unhealthy-zone-threshold', 0.55, 'Fraction of Nodes in a zone which needs to be not Ready (minimum 3) for zone to be treated as unhealthy')
    .string('cluster-cidr', '10.244.0.0/16', 'CIDR Range for Pods in cluster. Requires --allocate-node-cidrs to be true')
    .bool('allocate-node-cidrs', true, 'Should CIDRs for Pods be allocated and set on the cloud provider')
    .int('node-cidr-mask-size', 24, 'Mask size for node cidr in cluster')
    .int(
      'terminated-pod-gc-threshold',
      12500,
      'Number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If <= 0, the terminated pod garbage collector is disabled',
    )
    .int('concurrent-deployment-syncs', 5, 'The number of deployment objects that are allowed to sync concurrently')
    .int('concurrent-replicaset-syncs', 5, 'The number of replica sets that are allowed to sync concurrently')
    .int('concurrent-daemonset-syncs', 2, 'The number of daemonset objects that are allowed to sync concurrently')
    .int('concurrent-statefulset-syncs', 5, 'The number of statefulset objects that are allowed to sync concurrently. Larger number = more responsive statefulsets, but more CPU (and network) load')
    .int('concurrent-service-endpoint-syncs', 5, 'The number of service endpoint syncing operations that will be done concurrently')
    .int('concurrent-endpoint-syncs', 5, 'The number of endpoint syncing operations that will be done concurrently')
    .int('concurrent-gc-syncs', 20, 'The number of garbage collector workers that are allowed to sync concurrently')
    .int('concurrent-namespace-syncs', 10, 'The number of namespace objects that are allowed to sync concurrently')
    .int('concurrent-serviceaccount-token-syncs', 5, 'The number of service account objects that are allowed to sync concurrently')
    .int('max-endpoints-per-slice', 100, 'The maximum number of endpoints that will be added to an EndpointSlice')
    .bool('enable-garbage-collector', true, 'Enables the generic garbage collector')
    .duration('namespace-sync-period', 300_000, 'The period for syncing namespace life-cycle updates')
    .string('root-ca-file', '', "If set, this root certificate authority will be included in service account's token secret. This must be a valid PEM-encoded CA bundle.")
    .string('service-account-private-key-file', '', 'Filename containing a PEM-encoded private RSA or ECDSA key used to sign service account tokens.')
    .bool('use-service-account-credentials', false, 'If true, use individual service account credentials for each controller.')
    .string('cluster-signing-cert-file', '', 'Filename containing a PEM-encoded X509 CA certificate used to issue cluster-scoped certificates (the csrsigning controller runs only with it)')
    .string('cluster-signing-key-file', '', 'Filename containing a PEM-encoded RSA or ECDSA private key used to sign cluster-scoped certificates')
    .duration('cluster-signing-duration', 31_536_000_000, 'The max length of duration signed certificates will be given. Individual CSRs may request shorter certs by setting spec.expirationSeconds')
    .duration('horizontal-pod-autoscaler-sync-period', 15_000, 'The period for syncing the number of pods in horizontal pod autoscaler.')
    .duration(
      'horizontal-pod-autoscaler-downscale-stabilization',
      300_000,
      'The period for which autoscaler will look backwards and not scale down below any recommendation it made during that period.',
    )
    .float('horizontal-pod-autoscaler-tolerance', 0.1, 'The minimum change (from 1.0) in the desired-to-actual metrics ratio for the horizontal pod autoscaler to consider scaling.')
    .string('load-balancer-cidr', '10.250.0.0/24', "The range the service-lb-controller (kubelab's cloud-provider-kind) takes LoadBalancer ingress addresses from; empty disables it")
    .int('concurrent-service-syncs', 1, 'The number of services that are allowed to sync concurrently')
    .int(
      'concurrent-horizontal-pod-autoscaler-syncs',
      5,
      'The number of horizontal pod autoscaler objects that are allowed to sync concurrently. Larger number = more responsive horizontal pod autoscaler objects processing, but more CPU (and network) load.',
    )
    .float(
      'time-scale',
      1,
      "kubelab: CronJob schedules (and their startingDeadlineSeconds) run this many times faster than wall time, counted from each cron job's creation, to match the kubelet's and containerd's --time-scale.",
    );
}

export type ControllerManagerFlagValues = ReturnType<ReturnType<typeof controllerManagerFlags>['parse']>['values'];

/** What the controllers read; every field has the upstream default. */
export interface ControllerManagerConfig {
  controllers: string[];
  nodeMonitorPeriodMs: number;
  nodeMonitorGracePeriodMs: number;
  nodeStartupGracePeriodMs: number;
  nodeEvictionRate: number;
  secondaryNodeEvictionRate: number;
  largeClusterSizeThreshold: number;
  unhealthyZoneThreshold: number;
  clusterCidr: string;
  allocateNodeCidrs: boolean;
  nodeCidrMaskSize: number;
  terminatedPodGcThreshold: number;
  concurrentDeploymentSyncs: number;
  concurrentReplicasetSyncs: number;
  concurrentDaemonsetSyncs: number;
  concurrentStatefulsetSyncs: number;
  concurrentServiceEndpointSyncs: number;
  concurrentEndpointSyncs: number;
  concurrentGcSyncs: number;
  concurrentNamespaceSyncs: number;
  concurrentServiceaccountSyncs: number;
  maxEndpointsPerSlice: number;
  enableGarbageCollector: boolean;
  /** `--root-ca-file`: the CA the root CA publisher and the token controller write ('' : neither runs / no ca.crt). */
  rootCaFile: string;
  /** `--service-account-private-key-file`: signs legacy Secret tokens ('': the token controller does not run). */
  serviceAccountPrivateKeyFile: string;
  /** `--use-service-account-credentials`: each controller writes as its own ServiceAccount in kube-system (kubeadm sets it). */
  useServiceAccountCredentials: boolean;
  /** The csrsigning controller's CA (both set, or the controller does not run) and longest certificate. */
  clusterSigningCertFile: string;
  clusterSigningKeyFile: string;
  clusterSigningDurationMs: number;
  /** Pod GC's period (upstream gcCheckPeriod 20 s) and orphan quarantine (40 s). */
  podGcPeriodMs: number;
  podGcQuarantineMs: number;
  hpaSyncPeriodMs: number;
  hpaDownscaleStabilizationMs: number;
  hpaTolerance: number;
  concurrentHpaSyncs: number;
  /** `--load-balancer-cidr` (kubelab's, in a cloud provider's place): LoadBalancer ingress addresses ('' : the service-lb-controller does not run). */
  loadBalancerCidr: string;
  concurrentServiceSyncs: number;
  /** kubelab --time-scale: schedule time runs this many times faster than wall time (cronjob/schedule.ts). */
  timeScale: number;
}

export function defaultConfig(): ControllerManagerConfig {
  return configFromFlags(controllerManagerFlags().parse([], {}).values);
}

export function configFromFlags(v: ControllerManagerFlagValues): ControllerManagerConfig {
  return {
    controllers: v.controllers,
    nodeMonitorPeriodMs: v['node-monitor-period'],
    nodeMonitorGracePeriodMs: v['node-monitor-grace-period'],
    nodeStartupGracePeriodMs: v['node-startup-grace-period'],
    nodeEvictionRate: v['node-eviction-rate'],
    secondaryNodeEvictionRate: v['secondary-node-eviction-rate'],
    largeClusterSizeThreshold: v['large-cluster-size-threshold'],
    unhealthyZoneThreshold: v['unhealthy-zone-threshold'],
    clusterCidr: v['cluster-cidr'],
    allocateNodeCidrs: v['allocate-node-cidrs'],
    nodeCidrMaskSize: v['node-cidr-mask-size'],
    terminatedPodGcThreshold: v['terminated-pod-gc-threshold'],
    concurrentDeploymentSyncs: v['concurrent-deployment-syncs'],
    concurrentReplicasetSyncs: v['concurrent-replicaset-syncs'],
    concurrentDaemonsetSyncs: v['concurrent-daemonset-syncs'],
    concurrentStatefulsetSyncs: v['concurrent-statefulset-syncs'],
    concurrentServiceEndpointSyncs: v['concurrent-service-endpoint-syncs'],
    concurrentEndpointSyncs: v['concurrent-endpoint-syncs'],
    concurrentGcSyncs: v['concurrent-gc-syncs'],
    concurrentNamespaceSyncs: v['concurrent-namespace-syncs'],
    concurrentServiceaccountSyncs: v['concurrent-serviceaccount-token-syncs'],
    maxEndpointsPerSlice: v['max-endpoints-per-slice'],
    enableGarbageCollector: v['enable-garbage-collector'],
    rootCaFile: v['root-ca-file'],
    serviceAccountPrivateKeyFile: v['service-account-private-key-file'],
    useServiceAccountCredentials: v['use-service-account-credentials'],
    clusterSigningCertFile: v['cluster-signing-cert-file'],
    clusterSigningKeyFile: v['cluster-signing-key-file'],
    clusterSigningDurationMs: v['cluster-signing-duration'],
    podGcPeriodMs: 20_000,
    podGcQuarantineMs: 40_000,
    hpaSyncPeriodMs: v['horizontal-pod-autoscaler-sync-period'],
    hpaDownscaleStabilizationMs: v['horizontal-pod-autoscaler-downscale-stabilization'],
    hpaTolerance: v['horizontal-pod-autoscaler-tolerance'],
    concurrentHpaSyncs: v['concurrent-horizontal-pod-autoscaler-syncs'],
    loadBalancerCidr: v['load-balancer-cidr'],
    concurrentServiceSyncs: v['concurrent-service-syncs'],
    timeScale: timeScaleFrom(v['time-scale']),
  };
}

/** --time-scale must be a positive number (the kubelet's and containerd's rule). */
export function timeScaleFrom(n: number): number {
  if (!(n > 0) || !Number.isFinite(n)) throw new FlagError(`invalid argument "${n}" for "--time-scale" flag: must be a positive number`);
  return n;
}
