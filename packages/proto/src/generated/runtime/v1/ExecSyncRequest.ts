// Original file: ../../proto/runtime/v1/api.proto

import type { Long } from '@grpc/proto-loader';

export interface ExecSyncRequest {
  'containerId'?: (string);
  'cmd'?: (string)[];
  'timeout'?: (number | string | Long);
}

export interface ExecSyncRequest__Output {
  'containerId': (string);
  'cmd': (string)[];
  'timeout': (string);
}
