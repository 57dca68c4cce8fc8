import { describe, expect, it } from 'vitest';
import { DEFAULT_PID_MAX, pidMax, signalEffect, virtualPid } from './vpid.js';

describe('virtual shim pids', () => {
  it.each([
    ['32768\n', 32768],
    ['4194304', 4194304],
    ['', DEFAULT_PID_MAX],
    ['nonsense', DEFAULT_PID_MAX],
  ])('pid_max %j → %i', (text, want) => expect(pidMax(() => text)).toBe(want));
  it('pid_max unreadable → the default', () =>
    expect(
      pidMax(() => {
        throw new Error('ENOENT');
      }),
    ).toBe(DEFAULT_PID_MAX));

  it.each([
    [32768, 0, 32770],
    [32768, 1, 32772],
    [4194304, 9, 4194324],
  ])('pid_max %i, shim #%i → %i (past pid_max: never a real process)', (max, n, want) => {
    expect(virtualPid(max, n)).toBe(want);
    expect(virtualPid(max, n)).toBeGreaterThan(max);
  });

  it.each([
    ['SIGKILL', 'exit'],
    ['SIGTERM', 'exit'],
    ['SIGINT', 'exit'],
    ['SIGHUP', 'exit'],
    ['SIGSTOP', 'ignore'],
    ['SIGCONT', 'ignore'],
    ['SIGWINCH', 'ignore'],
    ['SIGPIPE', 'ignore'],
    [0, 'probe'],
    ['0', 'probe'],
  ] as const)('%s → %s', (sig, want) => expect(signalEffect(sig)).toBe(want));
});
