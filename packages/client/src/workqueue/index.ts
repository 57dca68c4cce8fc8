export { Queue, type QueueConfig } from './queue.js';
export { DelayingQueue } from './delaying.js';
export { RateLimitingQueue, newRateLimitingQueue, type RateLimitingQueueConfig } from './rate-limiting.js';
export { BucketRateLimiter, ItemExponentialFailureRateLimiter, ItemFastSlowRateLimiter, MaxOfRateLimiter, defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.js';
export { noopMetricsProvider, prometheusWorkqueueMetrics, type WorkqueueMetricsProvider, type GaugeMetric, type SettableGaugeMetric, type CounterMetric, type HistogramMetric } from './metrics.js';
export { processNextWorkItem, runWorkers, type SyncFunc } from './worker.js';
