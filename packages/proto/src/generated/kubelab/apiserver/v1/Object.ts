// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface Object {
  'json'?: (Buffer | Uint8Array | string);
}

export interface Object__Output {
  'json': (Buffer);
}
