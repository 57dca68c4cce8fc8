// Original file: ../../proto/runtime/v1/api.proto

import type { ContainerMetadata as _runtime_v1_ContainerMetadata, ContainerMetadata__Output as _runtime_v1_ContainerMetadata__Output } from '../../runtime/v1/ContainerMetadata.js';

export interface ContainerAttributes {
  'id'?: (string);
  'metadata'?: (_runtime_v1_ContainerMetadata | null);
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
}

export interface ContainerAttributes__Output {
  'id': (string);
  'metadata': (_runtime_v1_ContainerMetadata__Output | null);
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
}
