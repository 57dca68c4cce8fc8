// Original file: ../../proto/runtime/v1/api.proto

import type { PodSandboxStateValue as _runtime_v1_PodSandboxStateValue, PodSandboxStateValue__Output as _runtime_v1_PodSandboxStateValue__Output } from '../../runtime/v1/PodSandboxStateValue.js';

export interface PodSandboxFilter {
  'id'?: (string);
  'state'?: (_runtime_v1_PodSandboxStateValue | null);
  'labelSelector'?: ({[key: string]: string});
}

export interface PodSandboxFilter__Output {
  'id': (string);
  'state': (_runtime_v1_PodSandboxStateValue__Output | null);
  'labelSelector': ({[key: string]: string});
}
