// Every controller kube-controller-manager runs here, registered once with
// its upstream name (what --controllers takes) and its worker count.

import { ControllerRegistry } from './registry.js';
import { CsrApprovingController } from './certificates/approver/csr-approving-controller.js';
import { CsrSigningController } from './certificates/signer/csr-signing-controller.js';
import { ClusterRoleAggregationController } from './clusterrole-aggregation/clusterrole-aggregation-controller.js';
import { DaemonSetController } from './daemonset/daemonset-controller.js';
import { EndpointsController } from './endpointslice/endpoints-controller.js';
import { EndpointSliceController } from './endpointslice/endpointslice-controller.js';
import { DeploymentController } from './deployment/deployment-controller.js';
import { GarbageCollector } from './garbage-collector/garbage-collector.js';
import { NamespaceController } from './namespace/namespace-controller.js';
import { NodeIpamController } from './node-ipam/node-ipam-controller.js';
import { NodeLifecycleController } from './node-lifecycle/node-lifecycle-controller.js';
import { PodGcController } from './pod-gc/pod-gc-controller.js';
import { ReplicaSetController } from './replicaset/replicaset-controller.js';
import { ServiceAccountController } from './serviceaccount/serviceaccount-controller.js';
import { TaintEvictionController } from './taint-eviction/taint-eviction-controller.js';

export function defaultRegistry(): ControllerRegistry {
  return new ControllerRegistry()
    .register({ name: 'deployment-controller', aliases: ['deployment'], workers: (c) => c.concurrentDeploymentSyncs, create: (ctx) => new DeploymentController(ctx) })
    .register({ name: 'replicaset-controller', aliases: ['replicaset'], workers: (c) => c.concurrentReplicasetSyncs, create: (ctx) => new ReplicaSetController(ctx) })
    .register({ name: 'daemonset-controller', aliases: ['daemonset'], workers: (c) => c.concurrentDaemonsetSyncs, create: (ctx) => new DaemonSetController(ctx) })
    .register({ name: 'endpointslice-controller', aliases: ['endpointslice'], workers: (c) => c.concurrentServiceEndpointSyncs, create: (ctx) => new EndpointSliceController(ctx) })
    .register({ name: 'endpoints-controller', aliases: ['endpoint'], workers: (c) => c.concurrentEndpointSyncs, create: (ctx) => new EndpointsController(ctx) })
    .register({ name: 'node-lifecycle-controller', aliases: ['nodelifecycle'], workers: () => 1, create: (ctx) => new NodeLifecycleController(ctx) })
    .register({ name: 'taint-eviction-controller', aliases: [], workers: () => 8, create: (ctx) => new TaintEvictionController(ctx) })
    .register({
      name: 'node-ipam-controller',
      aliases: ['nodeipam'],
      workers: () => 1,
      enabled: (c) => c.allocateNodeCidrs,
      create: (ctx) => new NodeIpamController(ctx),
    })
    .register({
      name: 'garbage-collector-controller',
      aliases: ['garbagecollector'],
      workers: (c) => c.concurrentGcSyncs,
      enabled: (c) => c.enableGarbageCollector,
      create: (ctx) => new GarbageCollector(ctx),
    })
    .register({ name: 'namespace-controller', aliases: ['namespace'], workers: (c) => c.concurrentNamespaceSyncs, create: (ctx) => new NamespaceController(ctx) })
    .register({ name: 'serviceaccount-controller', aliases: ['serviceaccount'], workers: (c) => c.concurrentServiceaccountSyncs, create: (ctx) => new ServiceAccountController(ctx) })
    .register({ name: 'pod-garbage-collector-controller', aliases: ['podgc'], workers: () => 1, create: (ctx) => new PodGcController(ctx) })
    .register({ name: 'clusterrole-aggregation-controller', aliases: ['clusterrole-aggregation'], workers: () => 5, create: (ctx) => new ClusterRoleAggregationController(ctx) })
    .register({ name: 'certificatesigningrequest-approving-controller', aliases: ['csrapproving'], workers: () => 5, create: (ctx) => new CsrApprovingController(ctx) })
    .register({
      name: 'certificatesigningrequest-signing-controller',
      aliases: ['csrsigning'],
      workers: () => 5,
      // Upstream skips the signer without a CA ("no csr cert/key was specified").
      enabled: (c) => Boolean(c.clusterSigningCertFile && c.clusterSigningKeyFile),
      create: (ctx) => new CsrSigningController(ctx),
    });
}
