// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { CreateRequest as _kubelab_apiserver_v1_CreateRequest, CreateRequest__Output as _kubelab_apiserver_v1_CreateRequest__Output } from '../../../kubelab/apiserver/v1/CreateRequest.js';
import type { BindRequest as _kubelab_apiserver_v1_BindRequest, BindRequest__Output as _kubelab_apiserver_v1_BindRequest__Output } from '../../../kubelab/apiserver/v1/BindRequest.js';

export interface CreateStreamItem {
  'id'?: (number);
  'request'?: (_kubelab_apiserver_v1_CreateRequest | null);
  'traceparent'?: (string);
  'tracestate'?: (string);
  'bind'?: (_kubelab_apiserver_v1_BindRequest | null);
  'write'?: "request"|"bind";
}

export interface CreateStreamItem__Output {
  'id': (number);
  'request'?: (_kubelab_apiserver_v1_CreateRequest__Output | null);
  'traceparent': (string);
  'tracestate': (string);
  'bind'?: (_kubelab_apiserver_v1_BindRequest__Output | null);
  'write'?: "request"|"bind";
}
