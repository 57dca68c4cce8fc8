// Original file: ../../proto/runtime/v1/api.proto


export interface MetricDescriptor {
  'name'?: (string);
  'help'?: (string);
  'labelKeys'?: (string)[];
}

export interface MetricDescriptor__Output {
  'name': (string);
  'help': (string);
  'labelKeys': (string)[];
}
