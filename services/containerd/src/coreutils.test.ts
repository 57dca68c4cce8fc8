import { release } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startProcess, type StartedProcess } from './testing/process.js';

let s: StartedProcess | undefined;
afterEach(() => s?.p.kill());

describe('uname in a container', () => {
  it.each([
    ['uname', 'Linux\n'],
    ['uname -n', 'test\n'],
    ['uname -sr', `Linux ${release()}\n`],
  ])('%s', async (cmd, out) => {
    s = startProcess(['sleep', '30']);
    expect(await s.p.execSync(['sh', '-c', cmd], 5000)).toMatchObject({ stdout: out, exitCode: 0 });
  });

  it('uname -a names the shared kernel and the pod', async () => {
    s = startProcess(['sleep', '30']);
    expect((await s.p.execSync(['uname', '-a'], 5000)).stdout).toMatch(new RegExp(`^Linux test ${release().replace(/[.+]/g, '\\$&')} .* x86_64 GNU/Linux\n$`));
    expect(await s.p.execSync(['uname', '-z'], 5000)).toMatchObject({ stderr: "uname: invalid option -- 'z'\nTry 'uname --help' for more information.\n", exitCode: 1 });
  });
});
