// @kubelab/node: the node OS's tools, as functions for tests and the runner.
export { nodeEnv, runMain, type Io, type NodeEnv, type Tool } from './node-env.js';
export { systemctl } from './systemctl.js';
export { journalctl, formatRecord, parseJournalctlArgs } from './journalctl.js';
export { formatStatus, formatListUnits } from './systemctl-format.js';
