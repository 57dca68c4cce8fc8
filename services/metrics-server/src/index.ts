export { startMetricsServer, type MetricsServerOptions, type RunningMetricsServer } from './server.js';
export { decodeResourceMetrics, type MetricsPoint, type NodeBatch } from './scrape/decode.js';
export { MetricsStorage, usageBetween, type Usage } from './storage/storage.js';
