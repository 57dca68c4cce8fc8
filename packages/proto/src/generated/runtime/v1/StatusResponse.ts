// Original file: ../../proto/runtime/v1/api.proto

import type { RuntimeStatus as _runtime_v1_RuntimeStatus, RuntimeStatus__Output as _runtime_v1_RuntimeStatus__Output } from '../../runtime/v1/RuntimeStatus.js';
import type { RuntimeHandler as _runtime_v1_RuntimeHandler, RuntimeHandler__Output as _runtime_v1_RuntimeHandler__Output } from '../../runtime/v1/RuntimeHandler.js';
import type { RuntimeFeatures as _runtime_v1_RuntimeFeatures, RuntimeFeatures__Output as _runtime_v1_RuntimeFeatures__Output } from '../../runtime/v1/RuntimeFeatures.js';

export interface StatusResponse {
  'status'?: (_runtime_v1_RuntimeStatus | null);
  'info'?: ({[key: string]: string});
  'runtimeHandlers'?: (_runtime_v1_RuntimeHandler)[];
  'features'?: (_runtime_v1_RuntimeFeatures | null);
}

export interface StatusResponse__Output {
  'status': (_runtime_v1_RuntimeStatus__Output | null);
  'info': ({[key: string]: string});
  'runtimeHandlers': (_runtime_v1_RuntimeHandler__Output)[];
  'features': (_runtime_v1_RuntimeFeatures__Output | null);
}
