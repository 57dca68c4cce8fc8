// @kubelab/client: the machinery every component shares (client-go's role).

export {
  createClientset,
  buildClientset,
  GVR,
  type Clientset,
  type ClientsetConfig,
  type CoreV1,
  type AppsV1,
  type DiscoveryV1,
  type CoordinationV1,
  type RbacV1,
  type CertificatesV1,
  type BatchV1,
  type StorageV1,
  type PolicyV1,
  type AutoscalingV2,
} from './clientset/clientset.js';
export type {
  GroupVersionResource,
  ResourceInterface,
  PodInterface,
  ServiceAccountInterface,
  SubresourceClient,
  GetOptions,
  ListOptions,
  WatchOptions,
  WriteOptions,
  UpdateOptions,
  PatchOptions,
  PatchType,
  DeleteCallOptions,
  DeleteResult,
} from './clientset/types.js';
export { Connection, type ClientTls, type ConnectionConfig, type RequestOptions } from './transport/connection.js';
export { clientTlsFromCredentials, clientTlsFromKubeconfig, credentialsFromKubeconfig, reviewKubeconfigs, tokenFileSource } from './transport/kubeconfig.js';
export { toStatusError, grpcCodeOf, isUnavailable } from './transport/errors.js';
export { registerClientMetrics, clientRequestCount } from './transport/metrics.js';

export { SharedInformerFactory, listWatchFromClient, type InformerOptions, type SharedInformerFactoryOptions } from './informers/factory.js';
export { SharedIndexInformer, waitForCacheSync, type ResourceEventHandler, type HandlerRegistration, type SharedInformerOptions } from './informers/shared-informer.js';
export { Reflector, type ListWatch, type ReflectorStore, type ReflectorOptions } from './informers/reflector.js';
export { Indexer, NAMESPACE_INDEX, NODE_NAME_INDEX, namespaceIndexFunc, nodeNameIndexFunc, type IndexFunc, type Indexers } from './informers/store.js';
export { Lister, labelsMatch, type LabelMatcher, type NamespaceLister } from './informers/lister.js';
export { DeletedFinalStateUnknown, isTombstone, unwrapTombstone, deletionHandlingKey } from './informers/keys.js';
// Kept on the client's surface (client-go has them in tools/cache); one implementation, in @kubelab/api.
export { metaNamespaceKey, splitMetaNamespaceKey, formatTime, formatMicroTime, parseTime } from '@kubelab/api';

export * from './workqueue/index.js';

export { realClock, type Clock, type Timer } from './util/clock.js';
export { BoundedFrequencyRunner, type BoundedFrequencyRunnerOptions, type RunnerClock } from './util/bounded-frequency-runner.js';
export type { WatchStream } from './util/channel.js';
export type { ClientLogger } from './util/logger.js';

export {
  LeaderElector,
  runLeaderElection,
  runWhenLeading,
  LeaseLock,
  JITTER_FACTOR,
  type LeadOptions,
  type Leading,
  type LeaderElectionOptions,
  type LeaderElectionConfig,
  type LeaderCallbacks,
  type LeaderElectionRecord,
  type ResourceLock,
  prometheusLeaderElectionMetrics,
  type LeaderMetricsProvider,
} from './leaderelection/index.js';
export {
  EventBroadcaster,
  newEventBroadcaster,
  clientsetEventSink,
  referenceOf,
  EventCorrelator,
  type EventRecorder,
  type EventSink,
  type EventSubject,
  type EventType,
  type EventBroadcasterOptions,
  type RecorderSource,
} from './events/index.js';
