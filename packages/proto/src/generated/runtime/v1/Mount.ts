// Original file: ../../proto/runtime/v1/api.proto

import type { MountPropagation as _runtime_v1_MountPropagation, MountPropagation__Output as _runtime_v1_MountPropagation__Output } from '../../runtime/v1/MountPropagation.js';
import type { ImageSpec as _runtime_v1_ImageSpec, ImageSpec__Output as _runtime_v1_ImageSpec__Output } from '../../runtime/v1/ImageSpec.js';

export interface Mount {
  'containerPath'?: (string);
  'hostPath'?: (string);
  'readonly'?: (boolean);
  'selinuxRelabel'?: (boolean);
  'propagation'?: (_runtime_v1_MountPropagation);
  'recursiveReadOnly'?: (boolean);
  'image'?: (_runtime_v1_ImageSpec | null);
}

export interface Mount__Output {
  'containerPath': (string);
  'hostPath': (string);
  'readonly': (boolean);
  'selinuxRelabel': (boolean);
  'propagation': (_runtime_v1_MountPropagation__Output);
  'recursiveReadOnly': (boolean);
  'image': (_runtime_v1_ImageSpec__Output | null);
}
