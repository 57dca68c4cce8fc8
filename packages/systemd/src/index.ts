// @kubelab/systemd: systemd's and journald's roles on a kubelab node.
export {
  appendJournal,
  followJournal,
  journalDir,
  journalFile,
  kernelRecord,
  matches,
  monotonicNow,
  readJournal,
  realtimeNow,
  startKernelBoot,
  JOURNAL_MAX_BYTES,
  type JournalFilter,
  type JournalRecord,
} from './journal.js';
export {
  effectiveState,
  exitResult,
  initialState,
  listUnitStates,
  onExited,
  onStarted,
  onStarting,
  onStopping,
  pidAlive,
  readUnitState,
  unitName,
  unitStateDir,
  unitStatePath,
  writeUnitState,
  type ActiveState,
  type SubState,
  type UnitDefinition,
  type UnitResult,
  type UnitState,
} from './unit-state.js';
export { exitParenthetical, exitStatusOf, signalName, signalNumber, statusText, type ExitStatus } from './messages.js';
export * as messages from './messages.js';
export { controlSocketPath, parseControlRequest, sendControl, serveControl, type ControlReply, type ControlRequest, type ControlVerb } from './control.js';
export { CGROUP_PROCS_ENV, cgroupProcsPath, joinCgroup, readCgroupProcs, writeCgroupProcs } from './cgroup.js';
export { ServiceManager, type ServiceManagerOptions, type ServiceUnitDefinition } from './manager.js';
export { NODE_UNITS, nodeUnit, type NodeUnitName } from './units.js';
export { parseRunUnitArgs, runUnit, type RunUnitArgs } from './run-unit.js';
export {
  faultedDisk,
  faultedMeminfo,
  faultedPids,
  faultedWorkingSet,
  nodeFaultsDir,
  nodeFaultsFile,
  normalizeNodeFaults,
  readNodeFaults,
  watchNodeFaults,
  writeNodeFaults,
  type DiskUsage,
  type NodeFaultState,
  type NodeFaultUsage,
} from './node-faults.js';
