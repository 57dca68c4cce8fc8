// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface CreateResult {
  'id'?: (number);
  'code'?: (number);
  'object'?: (Buffer | Uint8Array | string);
  'status'?: (Buffer | Uint8Array | string);
}

export interface CreateResult__Output {
  'id': (number);
  'code': (number);
  'object': (Buffer);
  'status': (Buffer);
}
