// Original file: ../../proto/runtime/v1/api.proto


export interface VersionRequest {
  'version'?: (string);
}

export interface VersionRequest__Output {
  'version': (string);
}
