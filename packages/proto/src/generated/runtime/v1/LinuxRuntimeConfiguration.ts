// Original file: ../../proto/runtime/v1/api.proto

import type { CgroupDriver as _runtime_v1_CgroupDriver, CgroupDriver__Output as _runtime_v1_CgroupDriver__Output } from '../../runtime/v1/CgroupDriver.js';

export interface LinuxRuntimeConfiguration {
  'cgroupDriver'?: (_runtime_v1_CgroupDriver);
}

export interface LinuxRuntimeConfiguration__Output {
  'cgroupDriver': (_runtime_v1_CgroupDriver__Output);
}
