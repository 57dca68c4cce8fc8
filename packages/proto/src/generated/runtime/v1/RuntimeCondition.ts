// Original file: ../../proto/runtime/v1/api.proto


export interface RuntimeCondition {
  'type'?: (string);
  'status'?: (boolean);
  'reason'?: (string);
  'message'?: (string);
}

export interface RuntimeCondition__Output {
  'type': (string);
  'status': (boolean);
  'reason': (string);
  'message': (string);
}
