// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { CreateResult as _kubelab_apiserver_v1_CreateResult, CreateResult__Output as _kubelab_apiserver_v1_CreateResult__Output } from '../../../kubelab/apiserver/v1/CreateResult.js';

export interface CreateStreamResponse {
  'results'?: (_kubelab_apiserver_v1_CreateResult)[];
}

export interface CreateStreamResponse__Output {
  'results': (_kubelab_apiserver_v1_CreateResult__Output)[];
}
