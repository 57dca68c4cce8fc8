// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto


export interface GroupVersionResource {
  'group'?: (string);
  'version'?: (string);
  'resource'?: (string);
}

export interface GroupVersionResource__Output {
  'group': (string);
  'version': (string);
  'resource': (string);
}
