import { describe, expect, it } from 'vitest';
import { effectiveState, exitResult, initialState, onExited, onStarted, onStarting, onStopping, unitName, type UnitState } from './unit-state.js';

const def = { unit: 'kubelet.service', description: 'kubelet: The Kubernetes Node Agent', fragmentPath: '/usr/lib/systemd/system/kubelet.service', execStart: '/usr/bin/kubelet' };
const t0 = new Date('2026-12-01T13:30:12Z');
const t1 = new Date('2026-12-01T13:33:14Z');
const running = onStarted(onStarting(initialState(def), t0), 312, t0);

const brief = (s: UnitState) => [s.activeState, s.subState, s.result, s.mainPid, s.execMainCode, s.execMainStatus];

describe('unit state transitions (service_set_state)', () => {
  it.each<[string, UnitState, unknown[]]>([
    ['never started', initialState(def), ['inactive', 'dead', 'success', 0, '', 0]],
    ['activating', onStarting(initialState(def), t0), ['activating', 'start', 'success', 0, '', 0]],
    ['running', running, ['active', 'running', 'success', 312, '', 0]],
    ['stop requested', onStopping(running, t1), ['deactivating', 'stop-sigterm', 'success', 312, '', 0]],
    ['SIGKILL', onExited(running, null, 'SIGKILL', t1), ['failed', 'failed', 'signal', 0, 'killed', 9]],
    ['SIGTERM is clean', onExited(onStopping(running, t1), null, 'SIGTERM', t1), ['inactive', 'dead', 'success', 0, 'killed', 15]],
    ['exit 0', onExited(running, 0, null, t1), ['inactive', 'dead', 'success', 0, 'exited', 0]],
    ['exit 1', onExited(running, 1, null, t1), ['failed', 'failed', 'exit-code', 0, 'exited', 1]],
    ['restart after a failure clears the result', onStarting(onExited(running, 1, null, t1), t1), ['activating', 'start', 'success', 0, 'exited', 1]],
  ])('%s', (_name, s, want) => expect(brief(s)).toEqual(want));

  it('keeps the ended main PID and the times systemctl status shows', () => {
    const dead = onExited(running, null, 'SIGKILL', t1);
    expect([dead.execMainPid, dead.activeEnterTimestamp, dead.activeExitTimestamp, dead.stateChangeTimestamp]).toEqual([312, t0.toISOString(), t1.toISOString(), t1.toISOString()]);
  });

  it.each([
    [null, 'SIGHUP', 'success'],
    [null, 'SIGINT', 'success'],
    [null, 'SIGPIPE', 'success'],
    [null, 'SIGABRT', 'signal'],
    [0, null, 'success'],
    [255, null, 'exit-code'],
  ] as const)('exit code %s signal %s is %s (SuccessExitStatus defaults)', (code, signal, want) => expect(exitResult(code, signal)).toBe(want));
});

describe('effectiveState: a unit whose main process vanished with its manager', () => {
  it.each<[string, UnitState, boolean, unknown[]]>([
    ['running and alive', running, true, ['active', 'running', 'success', 312, '', 0]],
    ['running but gone', running, false, ['failed', 'failed', 'signal', 0, 'killed', 9]],
    ['already dead', onExited(running, 0, null, t1), false, ['inactive', 'dead', 'success', 0, 'exited', 0]],
  ])('%s', (_name, s, alive, want) => expect(brief(effectiveState(s, () => alive))).toEqual(want));
});

describe('unitName', () => {
  it.each([
    ['kubelet', 'kubelet.service'],
    ['kubelet.service', 'kubelet.service'],
    ['multi-user.target', 'multi-user.target'],
  ])('%s → %s', (arg, want) => expect(unitName(arg)).toBe(want));
});
