export { loadProto, protoRoot, LOADER_OPTIONS } from './load.js';
export * from './apiserver.js';
export * from './cri.js';
export * from './status.js';
export * from './grpc-health.js';
export * from './codes.js';
export * from './cri-record.js';
export * from './sandbox-network.js';
export * from './openapi-v2.js';
