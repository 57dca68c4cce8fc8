export { createLogger, type Logger, type LoggerOptions, type LogLevel, type LogFormat } from './logs.js';
export { FlagSet, FlagError } from './flags.js';
export { parseDuration, formatDuration } from './duration.js';
export { serveHealth, newMetricsRegistry, type HealthCheck, type HealthServer, type HealthServerOptions, type Route } from './health.js';
export { onShutdown } from './signals.js';
export { which } from './which.js';
