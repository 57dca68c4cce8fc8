// Original file: ../../proto/runtime/v1/api.proto

import type { Long } from '@grpc/proto-loader';

export interface StopContainerRequest {
  'containerId'?: (string);
  'timeout'?: (number | string | Long);
}

export interface StopContainerRequest__Output {
  'containerId': (string);
  'timeout': (string);
}
