// Every controller kube-controller-manager runs here, registered once with
// its upstream name (what --controllers takes) and its worker count.

import { readFileSync } from 'node:fs';
import { parseSigningKey } from '@kubelab/serviceaccount';
import { ControllerRegistry } from './registry.js';
import { CsrApprovingController } from './certificates/approver/csr-approving-controller.js';
import { CsrSigningController } from './certificates/signer/csr-signing-controller.js';
import { CsrCleanerController } from './certificates/cleaner/csr-cleaner-controller.js';
import { ClusterRoleAggregationController } from './clusterrole-aggregation/clusterrole-aggregation-controller.js';
import { TokenCleaner } from './bootstrap/tokencleaner.js';
import { BootstrapSigner } from './bootstrap/bootstrapsigner.js';
import { RootCACertPublisher } from './rootcacertpublisher/publisher.js';
import { TokensController } from './serviceaccount/tokens-controller.js';
import { DaemonSetController } from './daemonset/daemonset-controller.js';
import { StatefulSetController } from './statefulset/statefulset-controller.js';
import { EndpointsController } from './endpointslice/endpoints-controller.js';
import { EndpointSliceController } from './endpointslice/endpointslice-controller.js';
import { DeploymentController } from './deployment/deployment-controller.js';
import { DisruptionController } from './disruption/disruption-controller.js';
import { GarbageCollector } from './garbage-collector/garbage-collector.js';
import { NamespaceController } from './namespace/namespace-controller.js';
import { CIDR_UPDATE_WORKERS, NodeIpamController } from './node-ipam/node-ipam-controller.js';
import { NODE_UPDATE_WORKERS, NodeLifecycleController } from './node-lifecycle/node-lifecycle-controller.js';
import { PodGcController } from './pod-gc/pod-gc-controller.js';
import { ReplicaSetController } from './replicaset/replicaset-controller.js';
import { ServiceAccountController } from './serviceaccount/serviceaccount-controller.js';
import { TaintEvictionController } from './taint-eviction/taint-eviction-controller.js';
import { registerBatchControllers } from './batch.js';
import { registerAutoscalingControllers } from './autoscaling.js';
import { PersistentVolumeController } from './volume/persistentvolume/pv-controller.js';
import { LocalPathProvisioner } from './volume/local-path/local-path-provisioner.js';
import { PvcProtectionController } from './volume/protection/pvc-protection-controller.js';
import { PvProtectionController } from './volume/protection/pv-protection-controller.js';
import { ResourceQuotaController } from './resourcequota/resource-quota-controller.js';
import { ServiceLbController } from './service-lb/service-lb-controller.js';

const readRootCA = (file: string) => (file ? readFileSync(file, 'utf8') : '');

// serviceAccount: upstream's ClientOrDie names; the taint eviction and IPAM controllers write as node-controller, as upstream's node controllers did.
export function defaultRegistry(): ControllerRegistry {
  const r = new ControllerRegistry()
    .register({
      name: 'deployment-controller',
      aliases: ['deployment'],
      serviceAccount: 'deployment-controller',
      workers: (c) => c.concurrentDeploymentSyncs,
      create: (ctx) => new DeploymentController(ctx),
    })
    .register({
      name: 'replicaset-controller',
      aliases: ['replicaset'],
      serviceAccount: 'replicaset-controller',
      workers: (c) => c.concurrentReplicasetSyncs,
      create: (ctx) => new ReplicaSetController(ctx),
    })
    .register({
      name: 'daemonset-controller',
      aliases: ['daemonset'],
      serviceAccount: 'daemon-set-controller',
      workers: (c) => c.concurrentDaemonsetSyncs,
      create: (ctx) => new DaemonSetController(ctx),
    })
    .register({
      name: 'statefulset-controller',
      aliases: ['statefulset'],
      serviceAccount: 'statefulset-controller',
      workers: (c) => c.concurrentStatefulsetSyncs,
      create: (ctx) => new StatefulSetController(ctx),
    })
    .register({
      name: 'endpointslice-controller',
      aliases: ['endpointslice'],
      serviceAccount: 'endpointslice-controller',
      workers: (c) => c.concurrentServiceEndpointSyncs,
      create: (ctx) => new EndpointSliceController(ctx),
    })
    .register({ name: 'endpoints-controller', aliases: ['endpoint'], serviceAccount: 'endpoint-controller', workers: (c) => c.concurrentEndpointSyncs, create: (ctx) => new EndpointsController(ctx) })
    // The NoSchedule-taint queue's workers: upstream's nodeUpdateWorkerSize.
    .register({
      name: 'node-lifecycle-controller',
      aliases: ['nodelifecycle'],
      serviceAccount: 'node-controller',
      workers: () => NODE_UPDATE_WORKERS,
      create: (ctx) => new NodeLifecycleController(ctx),
    })
    .register({ name: 'taint-eviction-controller', aliases: [], serviceAccount: 'node-controller', workers: () => 8, create: (ctx) => new TaintEvictionController(ctx) })
    .register({
      name: 'node-ipam-controller',
      aliases: ['nodeipam'],
      serviceAccount: 'node-controller',
      // Upstream's range allocator writes podCIDRs with cidrUpdateWorkers (30) at once: one at a time, a thousand
      // joining nodes wait a write's round trip each.
      workers: () => CIDR_UPDATE_WORKERS,
      enabled: (c) => c.allocateNodeCidrs,
      create: (ctx) => new NodeIpamController(ctx),
    })
    .register({
      name: 'garbage-collector-controller',
      aliases: ['garbagecollector'],
      serviceAccount: 'generic-garbage-collector',
      workers: (c) => c.concurrentGcSyncs,
      enabled: (c) => c.enableGarbageCollector,
      create: (ctx) => new GarbageCollector(ctx),
    })
    .register({
      name: 'namespace-controller',
      aliases: ['namespace'],
      serviceAccount: 'namespace-controller',
      workers: (c) => c.concurrentNamespaceSyncs,
      create: (ctx) => new NamespaceController(ctx),
    })
    .register({
      name: 'serviceaccount-controller',
      aliases: ['serviceaccount'],
      serviceAccount: 'service-account-controller',
      workers: (c) => c.concurrentServiceaccountSyncs,
      create: (ctx) => new ServiceAccountController(ctx),
    })
    .register({ name: 'pod-garbage-collector-controller', aliases: ['podgc'], serviceAccount: 'pod-garbage-collector', workers: () => 1, create: (ctx) => new PodGcController(ctx) })
    .register({
      name: 'clusterrole-aggregation-controller',
      aliases: ['clusterrole-aggregation'],
      serviceAccount: 'clusterrole-aggregation-controller',
      workers: () => 5,
      create: (ctx) => new ClusterRoleAggregationController(ctx),
    })
    .register({
      name: 'root-ca-certificate-publisher-controller',
      aliases: ['root-ca-cert-publisher'],
      serviceAccount: 'root-ca-cert-publisher',
      workers: () => 1,
      // Upstream falls back to the CA of its kubeconfig; kubelab needs --root-ca-file.
      enabled: (c) => c.rootCaFile !== '',
      create: (ctx) => new RootCACertPublisher(ctx, readRootCA(ctx.config.rootCaFile)),
    })
    .register({
      name: 'serviceaccount-token-controller',
      aliases: ['serviceaccount-token'],
      workers: (c) => c.concurrentServiceaccountSyncs,
      enabled: (c) => c.serviceAccountPrivateKeyFile !== '',
      create: (ctx) => new TokensController(ctx, parseSigningKey(readFileSync(ctx.config.serviceAccountPrivateKeyFile, 'utf8')), readRootCA(ctx.config.rootCaFile)),
    })
    .register({
      name: 'certificatesigningrequest-approving-controller',
      aliases: ['csrapproving'],
      serviceAccount: 'certificate-controller',
      workers: () => 5,
      create: (ctx) => new CsrApprovingController(ctx),
    })
    .register({
      name: 'certificatesigningrequest-signing-controller',
      aliases: ['csrsigning'],
      serviceAccount: 'certificate-controller',
      workers: () => 5,
      // Upstream skips the signer without a CA ("no csr cert/key was specified").
      enabled: (c) => Boolean(c.clusterSigningCertFile && c.clusterSigningKeyFile),
      create: (ctx) => new CsrSigningController(ctx),
    })
    .register({
      name: 'certificatesigningrequest-cleaner-controller',
      aliases: ['csrcleaner'],
      serviceAccount: 'certificate-controller',
      workers: () => 1,
      create: (ctx) => new CsrCleanerController(ctx),
    })
    .register({ name: 'disruption-controller', aliases: ['disruption'], serviceAccount: 'disruption-controller', workers: () => 1, create: (ctx) => new DisruptionController(ctx) })
    // --concurrent-resource-quota-syncs' default.
    .register({ name: 'resourcequota-controller', aliases: ['resourcequota'], serviceAccount: 'resourcequota-controller', workers: () => 5, create: (ctx) => new ResourceQuotaController(ctx) })
    .register({
      name: 'bootstrap-signer-controller',
      aliases: ['bootstrapsigner'],
      serviceAccount: 'bootstrap-signer',
      workers: () => 1,
      disabledByDefault: true,
      create: (ctx) => new BootstrapSigner(ctx),
    })
    .register({ name: 'token-cleaner-controller', aliases: ['tokencleaner'], serviceAccount: 'token-cleaner', workers: () => 1, disabledByDefault: true, create: (ctx) => new TokenCleaner(ctx) })
    .register({
      name: 'persistentvolume-binder-controller',
      aliases: ['persistentvolume-binder'],
      serviceAccount: 'persistent-volume-binder',
      workers: () => 1,
      create: (ctx) => new PersistentVolumeController(ctx),
    })
    // Not kube-controller-manager's: kind's local-path-provisioner addon, run here (docs/architecture.md).
    .register({ name: 'local-path-provisioner', aliases: [], serviceAccount: 'persistent-volume-binder', workers: () => 1, create: (ctx) => new LocalPathProvisioner(ctx) })
    .register({
      name: 'persistentvolumeclaim-protection-controller',
      aliases: ['pvc-protection'],
      serviceAccount: 'pvc-protection-controller',
      workers: () => 1,
      create: (ctx) => new PvcProtectionController(ctx),
    })
    .register({
      name: 'persistentvolume-protection-controller',
      aliases: ['pv-protection'],
      serviceAccount: 'pv-protection-controller',
      workers: () => 1,
      create: (ctx) => new PvProtectionController(ctx),
    })
    // cloud-controller-manager's, run here with kind's cloud-provider-kind as the cloud (docs/architecture.md).
    .register({
      name: 'service-lb-controller',
      aliases: ['service'],
      serviceAccount: 'service-controller',
      workers: (c) => c.concurrentServiceSyncs,
      enabled: (c) => c.loadBalancerCidr !== '',
      create: (ctx) => new ServiceLbController(ctx),
    });
  return registerAutoscalingControllers(registerBatchControllers(r));
}
