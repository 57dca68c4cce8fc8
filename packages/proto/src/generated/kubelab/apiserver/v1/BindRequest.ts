// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface BindRequest {
  'namespace'?: (string);
  'binding'?: (Buffer | Uint8Array | string);
}

export interface BindRequest__Output {
  'namespace': (string);
  'binding': (Buffer);
}
