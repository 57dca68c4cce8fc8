// Original file: ../../proto/runtime/v1/api.proto

import type { LinuxContainerResources as _runtime_v1_LinuxContainerResources, LinuxContainerResources__Output as _runtime_v1_LinuxContainerResources__Output } from '../../runtime/v1/LinuxContainerResources.js';

export interface UpdateContainerResourcesRequest {
  'containerId'?: (string);
  'linux'?: (_runtime_v1_LinuxContainerResources | null);
  'annotations'?: ({[key: string]: string});
}

export interface UpdateContainerResourcesRequest__Output {
  'containerId': (string);
  'linux': (_runtime_v1_LinuxContainerResources__Output | null);
  'annotations': ({[key: string]: string});
}
