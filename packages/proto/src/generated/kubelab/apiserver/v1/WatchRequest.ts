// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { GroupVersionResource as _kubelab_apiserver_v1_GroupVersionResource, GroupVersionResource__Output as _kubelab_apiserver_v1_GroupVersionResource__Output } from '../../../kubelab/apiserver/v1/GroupVersionResource.js';
import type { Long } from '@grpc/proto-loader';

export interface WatchRequest {
  'resource'?: (_kubelab_apiserver_v1_GroupVersionResource | null);
  'namespace'?: (string);
  'labelSelector'?: (string);
  'fieldSelector'?: (string);
  'resourceVersion'?: (string);
  'allowWatchBookmarks'?: (boolean);
  'timeoutSeconds'?: (number | string | Long);
  'allowBatch'?: (boolean);
}

export interface WatchRequest__Output {
  'resource': (_kubelab_apiserver_v1_GroupVersionResource__Output | null);
  'namespace': (string);
  'labelSelector': (string);
  'fieldSelector': (string);
  'resourceVersion': (string);
  'allowWatchBookmarks': (boolean);
  'timeoutSeconds': (string);
  'allowBatch': (boolean);
}
