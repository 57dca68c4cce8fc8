// @kubelab/node: the node OS's tools, as functions for tests and the runner.
export { nodeEnv, runMain, type Io, type NodeEnv, type Tool } from './node-env.js';
export { systemctl } from './systemctl.js';
export { journalctl, formatRecord, parseJournalctlArgs } from './journalctl.js';
export { formatStatus, formatListUnits, formatShow, showProperties } from './systemctl-format.js';
export { dmesg, formatKernelLine } from './dmesg.js';
export { df, formatDf, humanCeil, mountSource } from './df.js';
export { free, uptime, formatFree, formatUptime, humanIec, parseMeminfo } from './meminfo.js';
export { ps, top, formatPsAux, formatPsEf, formatTop, statText, startText } from './ps.js';
export { allProcs, nodeProcs, parseStat, readProc, treeOf, type Proc } from './proc.js';
export { parseTimestamp, relativeAgo, shortTime, statusTimestamp, timespan } from './time.js';
export {
  FAULTS,
  findFault,
  formatFaultList,
  planFault,
  describeStep,
  mergeNodeFaults,
  diskFill,
  hungTaskLines,
  CRASHLOOP_RESTARTS,
  OOM_LIMIT_BYTES,
  type FaultEntry,
  type FaultName,
  type FaultStep,
  type NodeFacts,
} from './fault-catalogue.js';
export { crictlWith, nodeFacts, nodeFault, oomVictim, runNodeStep, runNodeSteps, type Crictl, type CriContainer, type NodeStepContext } from './fault.js';
export { runNodeControl, type NodeControl } from './control.js';
