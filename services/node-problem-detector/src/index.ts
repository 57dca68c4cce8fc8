// @kubelab/node-problem-detector: the service, its default configurations and its pure decisions.

export { startNodeProblemDetector, type NodeProblemDetectorOptions, type NodeProblemDetectorHandle } from './server.js';
export { parseNpdCommand, npdFlags, type NpdCommand } from './options.js';
export {
  DEFAULT_CONFIG_DIR,
  DEFAULT_SYSTEM_LOG_MONITORS,
  DEFAULT_CUSTOM_PLUGIN_MONITORS,
  parseSystemLogMonitorConfig,
  parseCustomPluginConfig,
  ConfigError,
  type SystemLogMonitorConfig,
  type CustomPluginConfig,
} from './config.js';
export { compilePattern, LogBuffer } from './log-buffer.js';
export { applyLogRule } from './log-monitor-status.js';
export { applyPluginResult } from './custom-plugin-status.js';
export { conditionChangeEvent, initialConditions } from './conditions.js';
export { appendJournal, readJournal, followJournal, type JournalRecord, type JournalFilter } from './journal-source.js';
export type { Condition, ProblemEvent, Status } from './types.js';
