// Original file: ../../proto/runtime/v1/api.proto


export interface RuntimeFeatures {
  'supplementalGroupsPolicy'?: (boolean);
}

export interface RuntimeFeatures__Output {
  'supplementalGroupsPolicy': (boolean);
}
