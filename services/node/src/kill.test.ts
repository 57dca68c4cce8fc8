import { describe, expect, it } from 'vitest';
import { parseKill, signalName } from './kill.js';

describe('kill', () => {
  it.each([
    ['9', 'SIGKILL'],
    ['KILL', 'SIGKILL'],
    ['sigterm', 'SIGTERM'],
    ['SIGHUP', 'SIGHUP'],
    ['0', 0],
    ['NOPE', undefined],
    ['99', undefined],
  ] as const)('signal %s → %s', (s, want) => expect(signalName(s)).toBe(want));

  it.each([
    [['123'], { signal: 'SIGTERM', pids: [123] }],
    [['-9', '32770'], { signal: 'SIGKILL', pids: [32770] }],
    [['-KILL', '1', '2'], { signal: 'SIGKILL', pids: [1, 2] }],
    [['-s', 'INT', '5'], { signal: 'SIGINT', pids: [5] }],
    [['-n', '15', '5'], { signal: 'SIGTERM', pids: [5] }],
    [['-0', '5'], { signal: 0, pids: [5] }],
    [['--', '7'], { signal: 'SIGTERM', pids: [7] }],
    [['-l'], { signal: 'SIGTERM', pids: [], list: true }],
    [['-FOO', '5'], { error: 'kill: FOO: invalid signal specification' }],
    [['abc'], { error: 'kill: abc: arguments must be process or job IDs' }],
    [[], { error: 'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]' }],
  ] as const)('kill %j', (argv, want) => expect(parseKill([...argv])).toEqual(want));
});
