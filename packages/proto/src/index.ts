export { loadProto, protoRoot, LOADER_OPTIONS } from './load.js';
export * from './apiserver.js';
