// Original file: ../../proto/runtime/v1/api.proto

import type { UInt64Value as _runtime_v1_UInt64Value, UInt64Value__Output as _runtime_v1_UInt64Value__Output } from '../../runtime/v1/UInt64Value.js';
import type { Long } from '@grpc/proto-loader';

export interface CpuUsage {
  'timestamp'?: (number | string | Long);
  'usageCoreNanoSeconds'?: (_runtime_v1_UInt64Value | null);
  'usageNanoCores'?: (_runtime_v1_UInt64Value | null);
}

export interface CpuUsage__Output {
  'timestamp': (string);
  'usageCoreNanoSeconds': (_runtime_v1_UInt64Value__Output | null);
  'usageNanoCores': (_runtime_v1_UInt64Value__Output | null);
}
