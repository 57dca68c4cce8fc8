export { createLogger, type Logger, type LoggerOptions, type LogLevel, type LogFormat } from './logs.js';
export { FlagSet, FlagError, readFlagFile } from './flags.js';
export { withApiserverFlags, apiserverAddressFrom, DEFAULT_APISERVER_GRPC_ADDRESS, type ApiserverFlagValues } from './apiserver-flags.js';
export { parseDuration, formatDuration } from './duration.js';
export { serveHealth, healthHandler, listenHttp, newMetricsRegistry, type HealthCheck, type HealthChecks, type HealthServer, type HealthServerOptions, type Route } from './health.js';
export { onShutdown, runMain } from './signals.js';
export { withLeaderElectionFlags, leaderElectionFrom, type LeaderElectionFlagValues } from './leader-election-flags.js';
export { which } from './which.js';
export { isUpgradeRequest, serveUpgrades, proxyUpgrade } from './upgrade.js';
