// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { GroupVersionResource as _kubelab_apiserver_v1_GroupVersionResource, GroupVersionResource__Output as _kubelab_apiserver_v1_GroupVersionResource__Output } from '../../../kubelab/apiserver/v1/GroupVersionResource.js';
import type { Long } from '@grpc/proto-loader';

export interface ListRequest {
  'resource'?: (_kubelab_apiserver_v1_GroupVersionResource | null);
  'namespace'?: (string);
  'labelSelector'?: (string);
  'fieldSelector'?: (string);
  'resourceVersion'?: (string);
  'limit'?: (number | string | Long);
  'continue'?: (string);
}

export interface ListRequest__Output {
  'resource': (_kubelab_apiserver_v1_GroupVersionResource__Output | null);
  'namespace': (string);
  'labelSelector': (string);
  'fieldSelector': (string);
  'resourceVersion': (string);
  'limit': (string);
  'continue': (string);
}
