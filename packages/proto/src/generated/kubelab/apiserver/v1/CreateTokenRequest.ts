// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface CreateTokenRequest {
  'namespace'?: (string);
  'name'?: (string);
  'tokenRequest'?: (Buffer | Uint8Array | string);
}

export interface CreateTokenRequest__Output {
  'namespace': (string);
  'name': (string);
  'tokenRequest': (Buffer);
}
