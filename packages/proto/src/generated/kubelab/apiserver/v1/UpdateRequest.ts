// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { GroupVersionResource as _kubelab_apiserver_v1_GroupVersionResource, GroupVersionResource__Output as _kubelab_apiserver_v1_GroupVersionResource__Output } from '../../../kubelab/apiserver/v1/GroupVersionResource.js';

export interface UpdateRequest {
  'resource'?: (_kubelab_apiserver_v1_GroupVersionResource | null);
  'namespace'?: (string);
  'name'?: (string);
  'object'?: (Buffer | Uint8Array | string);
  'dryRun'?: (string);
  'fieldManager'?: (string);
  'subresource'?: (string);
}

export interface UpdateRequest__Output {
  'resource': (_kubelab_apiserver_v1_GroupVersionResource__Output | null);
  'namespace': (string);
  'name': (string);
  'object': (Buffer);
  'dryRun': (string);
  'fieldManager': (string);
  'subresource': (string);
}
