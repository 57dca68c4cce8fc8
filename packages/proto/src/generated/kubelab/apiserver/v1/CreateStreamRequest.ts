// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { CreateStreamItem as _kubelab_apiserver_v1_CreateStreamItem, CreateStreamItem__Output as _kubelab_apiserver_v1_CreateStreamItem__Output } from '../../../kubelab/apiserver/v1/CreateStreamItem.js';

export interface CreateStreamRequest {
  'items'?: (_kubelab_apiserver_v1_CreateStreamItem)[];
}

export interface CreateStreamRequest__Output {
  'items': (_kubelab_apiserver_v1_CreateStreamItem__Output)[];
}
