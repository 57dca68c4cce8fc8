// Original file: ../../proto/runtime/v1/api.proto

import type { Long } from '@grpc/proto-loader';

export interface LinuxContainerResources {
  'cpuPeriod'?: (number | string | Long);
  'cpuQuota'?: (number | string | Long);
  'cpuShares'?: (number | string | Long);
  'memoryLimitInBytes'?: (number | string | Long);
  'oomScoreAdj'?: (number | string | Long);
  'cpusetCpus'?: (string);
  'cpusetMems'?: (string);
  'unified'?: ({[key: string]: string});
  'memorySwapLimitInBytes'?: (number | string | Long);
}

export interface LinuxContainerResources__Output {
  'cpuPeriod': (string);
  'cpuQuota': (string);
  'cpuShares': (string);
  'memoryLimitInBytes': (string);
  'oomScoreAdj': (string);
  'cpusetCpus': (string);
  'cpusetMems': (string);
  'unified': ({[key: string]: string});
  'memorySwapLimitInBytes': (string);
}
