// Original file: ../../proto/runtime/v1/api.proto

import type { FilesystemUsage as _runtime_v1_FilesystemUsage, FilesystemUsage__Output as _runtime_v1_FilesystemUsage__Output } from '../../runtime/v1/FilesystemUsage.js';

export interface ImageFsInfoResponse {
  'imageFilesystems'?: (_runtime_v1_FilesystemUsage)[];
  'containerFilesystems'?: (_runtime_v1_FilesystemUsage)[];
}

export interface ImageFsInfoResponse__Output {
  'imageFilesystems': (_runtime_v1_FilesystemUsage__Output)[];
  'containerFilesystems': (_runtime_v1_FilesystemUsage__Output)[];
}
