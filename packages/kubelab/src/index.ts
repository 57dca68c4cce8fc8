export { components, kubeadmFiles, nodePorts, DEFAULT_PORTS, type ComponentSpec, type Layout } from './topology.js';
export { routeFlags } from './flag-routing.js';
export { parseUpArgs } from './up.js';
export { runTrace, type TraceIo } from './trace/run.js';
export { formatDurationMs } from './trace/format.js';
export { ENCRYPTION_CONFIG_FILE, encryptionConfigYaml, ensureEncryptionConfig } from './encryption-config.js';
export { runKv, type KvArgs, type KvIo } from './kv/run.js';
export { controlPlanePorts } from './topology.js';
export { HA_SIZE, haPorts } from './ha.js';
