// Original file: ../../proto/runtime/v1/api.proto

import type { LinuxSandboxSecurityContext as _runtime_v1_LinuxSandboxSecurityContext, LinuxSandboxSecurityContext__Output as _runtime_v1_LinuxSandboxSecurityContext__Output } from '../../runtime/v1/LinuxSandboxSecurityContext.js';
import type { LinuxContainerResources as _runtime_v1_LinuxContainerResources, LinuxContainerResources__Output as _runtime_v1_LinuxContainerResources__Output } from '../../runtime/v1/LinuxContainerResources.js';

export interface LinuxPodSandboxConfig {
  'cgroupParent'?: (string);
  'securityContext'?: (_runtime_v1_LinuxSandboxSecurityContext | null);
  'sysctls'?: ({[key: string]: string});
  'overhead'?: (_runtime_v1_LinuxContainerResources | null);
  'resources'?: (_runtime_v1_LinuxContainerResources | null);
}

export interface LinuxPodSandboxConfig__Output {
  'cgroupParent': (string);
  'securityContext': (_runtime_v1_LinuxSandboxSecurityContext__Output | null);
  'sysctls': ({[key: string]: string});
  'overhead': (_runtime_v1_LinuxContainerResources__Output | null);
  'resources': (_runtime_v1_LinuxContainerResources__Output | null);
}
