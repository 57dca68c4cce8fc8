export { components, kubeadmFiles, nodePorts, DEFAULT_PORTS, type ComponentSpec, type Layout } from './topology.js';
export { routeFlags } from './flag-routing.js';
export { parseUpArgs } from './up.js';
export { runTrace, type TraceIo } from './trace/run.js';
export { formatDurationMs } from './trace/format.js';
