import { describe, expect, it } from 'vitest';
import { startProcess } from './testing/process.js';
import { fromByteOffset } from './tail-bytes.js';

describe('fromByteOffset', () => {
  it.each<[string[], ReturnType<typeof fromByteOffset>]>([
    [['-c+10'], { start: 9 }],
    [['-c', '+1'], { start: 0 }],
    [['-c+0'], { start: 0 }],
    [['--bytes=+3', 'f'], { start: 2, file: 'f' }],
    [['-c', '10'], undefined],
    [['-n', '+2'], undefined],
    [['-c+1', '-f'], undefined],
  ])('%j', (args, want) => {
    expect(fromByteOffset(args)).toEqual(want);
  });
});

describe('tail in the container shell', () => {
  it('tail -c+N passes bytes from the Nth on unchanged (kubectl cp --retries); other forms stay just-bash tail', async () => {
    const { p } = startProcess('sleep 1000');
    const bytes = Buffer.from([0x41, 0x80, 0xff, 0x0a, 0x42]);
    await p.execStream(['sh', '-c', 'cat > /tmp/b'], { stdin: bytes, output: () => {} });
    const run = async (script: string) => {
      const out: Buffer[] = [];
      await p.execStream(['sh', '-c', script], { output: (s, d) => s === 'stdout' && out.push(Buffer.from(typeof d === 'string' ? Buffer.from(d) : d)) });
      return Buffer.concat(out);
    };
    expect(await run('cat /tmp/b | tail -c+2')).toEqual(bytes.subarray(1));
    expect(await run('tail -c +1 /tmp/b')).toEqual(bytes);
    expect((await run('printf "a\\nb\\nc\\n" | tail -n 2')).toString()).toBe('b\nc\n');
    p.kill();
  });
});
