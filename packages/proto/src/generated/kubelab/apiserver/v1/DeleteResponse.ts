// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface DeleteResponse {
  'object'?: (Buffer | Uint8Array | string);
  'deleted'?: (boolean);
}

export interface DeleteResponse__Output {
  'object': (Buffer);
  'deleted': (boolean);
}
