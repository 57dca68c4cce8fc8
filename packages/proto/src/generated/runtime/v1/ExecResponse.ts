// Original file: ../../proto/runtime/v1/api.proto


export interface ExecResponse {
  'url'?: (string);
}

export interface ExecResponse__Output {
  'url': (string);
}
