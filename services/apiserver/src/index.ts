export { startApiserver, type ApiserverOptions, type RunningApiserver } from './server.js';
export { statusToGrpc, grpcToStatus, grpcCodeForStatus, STATUS_METADATA_KEY } from '@kubelab/proto';
export { rawJson, rawText } from './cache/raw.js';
export { MAX_OBJECT_BYTES } from './registry/store.js';
export { SYSTEM_NAMESPACES } from './bootstrap.js';
export type { Registry, ResourceStore, RequestContext, ListOptions, WatchOptions, Watch, PatchType, Subresource, DeleteResult } from './registry/interface.js';
export { traceRestHandler, nameRestRequestSpan, restSpanName, type RequestSpanInfo } from './tracing/request.js';
export { STORAGE_SPAN_NAMES } from './tracing/storage.js';
