// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface ObjectList {
  'json'?: (Buffer | Uint8Array | string);
}

export interface ObjectList__Output {
  'json': (Buffer);
}
