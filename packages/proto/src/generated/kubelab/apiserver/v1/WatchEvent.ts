// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface WatchEvent {
  'type'?: (string);
  'object'?: (Buffer | Uint8Array | string);
}

export interface WatchEvent__Output {
  'type': (string);
  'object': (Buffer);
}
