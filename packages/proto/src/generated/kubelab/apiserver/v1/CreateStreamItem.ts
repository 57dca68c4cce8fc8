// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { CreateRequest as _kubelab_apiserver_v1_CreateRequest, CreateRequest__Output as _kubelab_apiserver_v1_CreateRequest__Output } from '../../../kubelab/apiserver/v1/CreateRequest.js';
import type { BindRequest as _kubelab_apiserver_v1_BindRequest, BindRequest__Output as _kubelab_apiserver_v1_BindRequest__Output } from '../../../kubelab/apiserver/v1/BindRequest.js';
import type { UpdateRequest as _kubelab_apiserver_v1_UpdateRequest, UpdateRequest__Output as _kubelab_apiserver_v1_UpdateRequest__Output } from '../../../kubelab/apiserver/v1/UpdateRequest.js';
import type { PatchRequest as _kubelab_apiserver_v1_PatchRequest, PatchRequest__Output as _kubelab_apiserver_v1_PatchRequest__Output } from '../../../kubelab/apiserver/v1/PatchRequest.js';
import type { CreateTokenRequest as _kubelab_apiserver_v1_CreateTokenRequest, CreateTokenRequest__Output as _kubelab_apiserver_v1_CreateTokenRequest__Output } from '../../../kubelab/apiserver/v1/CreateTokenRequest.js';

export interface CreateStreamItem {
  'id'?: (number);
  'request'?: (_kubelab_apiserver_v1_CreateRequest | null);
  'traceparent'?: (string);
  'tracestate'?: (string);
  'bind'?: (_kubelab_apiserver_v1_BindRequest | null);
  'update'?: (_kubelab_apiserver_v1_UpdateRequest | null);
  'updateStatus'?: (_kubelab_apiserver_v1_UpdateRequest | null);
  'patch'?: (_kubelab_apiserver_v1_PatchRequest | null);
  'createToken'?: (_kubelab_apiserver_v1_CreateTokenRequest | null);
  'write'?: "request"|"bind"|"update"|"updateStatus"|"patch"|"createToken";
}

export interface CreateStreamItem__Output {
  'id': (number);
  'request'?: (_kubelab_apiserver_v1_CreateRequest__Output | null);
  'traceparent': (string);
  'tracestate': (string);
  'bind'?: (_kubelab_apiserver_v1_BindRequest__Output | null);
  'update'?: (_kubelab_apiserver_v1_UpdateRequest__Output | null);
  'updateStatus'?: (_kubelab_apiserver_v1_UpdateRequest__Output | null);
  'patch'?: (_kubelab_apiserver_v1_PatchRequest__Output | null);
  'createToken'?: (_kubelab_apiserver_v1_CreateTokenRequest__Output | null);
  'write'?: "request"|"bind"|"update"|"updateStatus"|"patch"|"createToken";
}
