// Original file: ../../proto/kubelab/apiserver/v1/apiserver.proto

import type { WatchEvent as _kubelab_apiserver_v1_WatchEvent, WatchEvent__Output as _kubelab_apiserver_v1_WatchEvent__Output } from '../../../kubelab/apiserver/v1/WatchEvent.js';

export interface WatchEvent {
  'type'?: (string);
  'object'?: (Buffer | Uint8Array | string);
  'batch'?: (_kubelab_apiserver_v1_WatchEvent)[];
}

export interface WatchEvent__Output {
  'type': (string);
  'object': (Buffer);
  'batch': (_kubelab_apiserver_v1_WatchEvent__Output)[];
}
