// Original file: ../../proto/runtime/v1/api.proto

import type { UInt64Value as _runtime_v1_UInt64Value, UInt64Value__Output as _runtime_v1_UInt64Value__Output } from '../../runtime/v1/UInt64Value.js';

export interface NetworkInterfaceUsage {
  'name'?: (string);
  'rxBytes'?: (_runtime_v1_UInt64Value | null);
  'rxErrors'?: (_runtime_v1_UInt64Value | null);
  'txBytes'?: (_runtime_v1_UInt64Value | null);
  'txErrors'?: (_runtime_v1_UInt64Value | null);
}

export interface NetworkInterfaceUsage__Output {
  'name': (string);
  'rxBytes': (_runtime_v1_UInt64Value__Output | null);
  'rxErrors': (_runtime_v1_UInt64Value__Output | null);
  'txBytes': (_runtime_v1_UInt64Value__Output | null);
  'txErrors': (_runtime_v1_UInt64Value__Output | null);
}
