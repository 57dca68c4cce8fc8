// Original file: ../../proto/runtime/v1/api.proto

import type { PodIP as _runtime_v1_PodIP, PodIP__Output as _runtime_v1_PodIP__Output } from '../../runtime/v1/PodIP.js';

export interface PodSandboxNetworkStatus {
  'ip'?: (string);
  'additionalIps'?: (_runtime_v1_PodIP)[];
}

export interface PodSandboxNetworkStatus__Output {
  'ip': (string);
  'additionalIps': (_runtime_v1_PodIP__Output)[];
}
