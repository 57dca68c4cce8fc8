// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { CreateRequest as _kubelab_apiserver_v1_CreateRequest, CreateRequest__Output as _kubelab_apiserver_v1_CreateRequest__Output } from '../../../kubelab/apiserver/v1/CreateRequest.js';

export interface CreateStreamItem {
  'id'?: (number);
  'request'?: (_kubelab_apiserver_v1_CreateRequest | null);
  'traceparent'?: (string);
  'tracestate'?: (string);
}

export interface CreateStreamItem__Output {
  'id': (number);
  'request': (_kubelab_apiserver_v1_CreateRequest__Output | null);
  'traceparent': (string);
  'tracestate': (string);
}
