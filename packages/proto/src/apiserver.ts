import type { ProtoGrpcType } from './generated/apiserver.js';
import { loadProto } from './load.js';

/** The apiserver's component API (`kubelab.apiserver.v1`). */
export function apiserverProto(): ProtoGrpcType {
  return loadProto('kubelab/apiserver/v1/apiserver.proto') as unknown as ProtoGrpcType;
}

export type { ResourceServiceClient } from './generated/kubelab/apiserver/v1/ResourceService.js';
export type { ResourceServiceHandlers } from './generated/kubelab/apiserver/v1/ResourceService.js';
