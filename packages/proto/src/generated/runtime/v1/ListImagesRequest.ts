// Original file: ../../proto/runtime/v1/api.proto

import type { ImageFilter as _runtime_v1_ImageFilter, ImageFilter__Output as _runtime_v1_ImageFilter__Output } from '../../runtime/v1/ImageFilter.js';

export interface ListImagesRequest {
  'filter'?: (_runtime_v1_ImageFilter | null);
}

export interface ListImagesRequest__Output {
  'filter': (_runtime_v1_ImageFilter__Output | null);
}
