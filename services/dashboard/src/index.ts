export { FlowBuffer, matches, podStory, storyPods, RELIST_METHODS, type FlowFilter, type FlowKind, type FlowMessage, type PodStory } from './flow.js';
export { Live, type MapState, type NodeView, type PodView } from './live.js';
export { criMessage, apiMessage, eventMessage } from './records.js';
export { startDashboardServer, type RunningDashboard } from './server.js';
export { dashboardFlags, DEFAULT_PORT } from './options.js';
export { decodeOtlpJson, decodeOtlpProtobuf, encodeExportResponse, OtlpError, type DecodedExport } from './otlp.js';
export { SpanStore } from './spans.js';
export { summarize, waterfall, type StoredSpan, type TraceSummary } from './trace-model.js';
export { handleOtlpHttp, handleTracesApi, startOtlpGrpc, MAX_OTLP_BODY } from './receiver.js';
