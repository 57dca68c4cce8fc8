// Original file: ../../proto/runtime/v1/api.proto

import type { PodSandboxStatus as _runtime_v1_PodSandboxStatus, PodSandboxStatus__Output as _runtime_v1_PodSandboxStatus__Output } from '../../runtime/v1/PodSandboxStatus.js';
import type { ContainerStatus as _runtime_v1_ContainerStatus, ContainerStatus__Output as _runtime_v1_ContainerStatus__Output } from '../../runtime/v1/ContainerStatus.js';
import type { Long } from '@grpc/proto-loader';

export interface PodSandboxStatusResponse {
  'status'?: (_runtime_v1_PodSandboxStatus | null);
  'info'?: ({[key: string]: string});
  'containersStatuses'?: (_runtime_v1_ContainerStatus)[];
  'timestamp'?: (number | string | Long);
}

export interface PodSandboxStatusResponse__Output {
  'status': (_runtime_v1_PodSandboxStatus__Output | null);
  'info': ({[key: string]: string});
  'containersStatuses': (_runtime_v1_ContainerStatus__Output)[];
  'timestamp': (string);
}
