// A service unit's runtime state as systemd keeps it (the properties
// `systemctl show` prints: ActiveState, SubState, Result, MainPID,
// ExecMainCode, ...), persisted per unit under <root>/run/systemd/units/ so
// systemctl in another process can read it. The transitions are pure
// functions of the previous state (upstream service_set_state and
// service_enter_* in src/core/service.c); the manager does the I/O.

import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exitStatusOf, type ExitStatus } from './messages.js';

export type ActiveState = 'active' | 'inactive' | 'failed' | 'activating' | 'deactivating';
export type SubState = 'running' | 'dead' | 'failed' | 'auto-restart' | 'start' | 'stop-sigterm';
export type UnitResult = 'success' | 'signal' | 'exit-code';

/** What the unit is, from its unit file (the [Unit] and [Service] lines systemctl status shows). */
export interface UnitDefinition {
  unit: string;
  description: string;
  /** The unit file's path on the node (`Loaded: loaded (<fragmentPath>; enabled; ...)`). */
  fragmentPath: string;
  documentation?: string[];
  /** ExecStart as the unit file writes it (the node's paths, not the runner's). */
  execStart: string;
}

export interface UnitState {
  unit: string;
  description: string;
  fragmentPath: string;
  documentation?: string[];
  unitFileState: 'enabled' | 'disabled';
  activeState: ActiveState;
  subState: SubState;
  result: UnitResult;
  mainPid: number;
  /** The last main process's PID after it ended (systemctl's `Main PID: 312 (code=killed, signal=KILL)`). */
  execMainPid?: number;
  stateChangeTimestamp: string;
  activeEnterTimestamp: string;
  /** When the unit last left active (systemctl status's Duration line). */
  activeExitTimestamp?: string;
  execMainCode: 'exited' | 'killed' | '';
  execMainStatus: number;
  nRestarts: number;
  execStart: string;
  controlSocket: string;
  /**
   * kubelab: the compose service whose container runs this unit's manager
   * (`kubelet-2`). When that container is gone, so is the control socket, and
   * systemctl names the service to start instead.
   */
  container?: string;
}

export function unitStateDir(root: string): string {
  return join(root, 'run', 'systemd', 'units');
}

export function unitStatePath(root: string, unit: string): string {
  return join(unitStateDir(root), `${unit}.json`);
}

/** A unit never started since the node booted: `inactive (dead)` with no timestamps. */
export function initialState(def: UnitDefinition, controlSocket = ''): UnitState {
  return {
    unit: def.unit,
    description: def.description,
    fragmentPath: def.fragmentPath,
    ...(def.documentation ? { documentation: def.documentation } : {}),
    unitFileState: 'enabled',
    activeState: 'inactive',
    subState: 'dead',
    result: 'success',
    mainPid: 0,
    stateChangeTimestamp: '',
    activeEnterTimestamp: '',
    execMainCode: '',
    execMainStatus: 0,
    nRestarts: 0,
    execStart: def.execStart,
    controlSocket,
  };
}

/** systemctl start: the job runs, ExecStart is being spawned (`activating (start)`). */
export function onStarting(s: UnitState, now: Date): UnitState {
  return { ...s, activeState: 'activating', subState: 'start', result: 'success', mainPid: 0, stateChangeTimestamp: now.toISOString() };
}

/** Type=simple: the unit is active as soon as the main process exists. */
export function onStarted(s: UnitState, pid: number, now: Date): UnitState {
  const t = now.toISOString();
  return { ...s, activeState: 'active', subState: 'running', mainPid: pid, execMainPid: pid, stateChangeTimestamp: t, activeEnterTimestamp: t, execMainCode: '', execMainStatus: 0 };
}

/** systemctl stop: SIGTERM sent to the main process (`deactivating (stop-sigterm)`). */
export function onStopping(s: UnitState, now: Date): UnitState {
  return { ...s, activeState: 'deactivating', subState: 'stop-sigterm', stateChangeTimestamp: now.toISOString() };
}

// SuccessExitStatus's defaults: exit 0 and the "clean" signals HUP, INT, TERM, PIPE (systemd.service(5)).
const CLEAN_SIGNALS = new Set<NodeJS.Signals>(['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGPIPE']);

/** The result of a main process's end (service_sigchld_event): success, or why the unit failed. */
export function exitResult(code: number | null, signal: NodeJS.Signals | null): UnitResult {
  if (signal) return CLEAN_SIGNALS.has(signal) ? 'success' : 'signal';
  return code === 0 ? 'success' : 'exit-code';
}

/**
 * The main process ended. Restart=no (kubelab's units stay down until
 * someone starts them), so the unit is `inactive (dead)` on success and
 * `failed (Result: …)` otherwise, whether or not a stop was requested.
 */
export function onExited(s: UnitState, code: number | null, signal: NodeJS.Signals | null, now: Date): UnitState {
  const result = exitResult(code, signal);
  const exit: ExitStatus = exitStatusOf(code, signal);
  const t = now.toISOString();
  return {
    ...s,
    activeState: result === 'success' ? 'inactive' : 'failed',
    subState: result === 'success' ? 'dead' : 'failed',
    result,
    mainPid: 0,
    execMainPid: s.mainPid || s.execMainPid,
    execMainCode: exit.code,
    execMainStatus: exit.status,
    stateChangeTimestamp: t,
    activeExitTimestamp: t,
  };
}

/**
 * What readers show: a unit recorded as running whose main process is gone
 * was killed together with its manager (`docker compose kill`), so it is
 * `failed (Result: signal)` as systemd would have recorded it.
 */
export function effectiveState(s: UnitState, alive: (pid: number) => boolean): UnitState {
  const live = s.activeState === 'active' || s.activeState === 'activating' || s.activeState === 'deactivating';
  if (!live || (s.mainPid > 0 && alive(s.mainPid))) return s;
  return {
    ...s,
    activeState: 'failed',
    subState: 'failed',
    result: 'signal',
    mainPid: 0,
    execMainPid: s.mainPid || s.execMainPid,
    execMainCode: 'killed',
    execMainStatus: 9,
    controlSocket: '',
  };
}

/** Written whole and renamed into place, so a reader never sees half a file. */
export function writeUnitState(root: string, s: UnitState): void {
  mkdirSync(unitStateDir(root), { recursive: true });
  const file = unitStatePath(root, s.unit);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(s, null, 2) + '\n');
  renameSync(tmp, file);
}

/** The unit's state, or undefined when no manager on this node runs it (`Unit foo.service could not be found.`). */
export function readUnitState(root: string, unit: string): UnitState | undefined {
  try {
    return JSON.parse(readFileSync(unitStatePath(root, unit), 'utf8')) as UnitState;
  } catch {
    return undefined;
  }
}

/** Every unit of the node, by name. */
export function listUnitStates(root: string): UnitState[] {
  let names: string[];
  try {
    names = readdirSync(unitStateDir(root));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.service.json'))
    .sort()
    .map((n) => readUnitState(root, n.slice(0, -'.json'.length)))
    .filter((s): s is UnitState => s !== undefined);
}

/** `kubelet` → `kubelet.service`, as systemctl completes a bare name. */
export function unitName(arg: string): string {
  return /\.(service|socket|target|timer|mount|slice|scope|path|device|swap|automount)$/.test(arg) ? arg : `${arg}.service`;
}

/** Whether a process exists (kill -0; EPERM means it exists under another user). */
export function pidAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
