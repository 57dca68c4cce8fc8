import { describe, expect, it } from 'vitest';
import type { Stream } from '../logs.js';
import { chunkText, type Chunk } from '../output.js';
import { ExecSession, exitsShell, isIncomplete, isInteractiveShell, type ExecTarget } from './session.js';

/** A fake container: records each run and answers from a script of results. */
function fakeTarget(
  run: (argv: string[], stdin: string | undefined, out: (s: Stream, t: string) => void, cwd?: string, signal?: AbortSignal) => Promise<number> | number,
): ExecTarget & { calls: { argv: string[]; stdin?: string; cwd?: string }[] } {
  const calls: { argv: string[]; stdin?: string; cwd?: string }[] = [];
  const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : Buffer.from(b).toString('utf8'));
  return {
    calls,
    execCwd: '/',
    async execStream(argv, o) {
      calls.push({ argv, ...(o.stdin !== undefined ? { stdin: text(o.stdin)! } : {}), ...(o.cwd ? { cwd: o.cwd } : {}) });
      const exitCode = await run(argv, text(o.stdin), o.output, o.cwd, o.signal);
      const script = argv[2] ?? '';
      const cd = /^cd (\S+)$/.exec(script);
      return { exitCode, env: { PWD: cd ? cd[1]! : (o.cwd ?? '/') } };
    },
  };
}

function collect() {
  const out: string[] = [];
  return { out, write: (ch: 1 | 2, t: Chunk) => void out.push(`${ch}:${chunkText(t)}`) };
}

describe('ExecSession', () => {
  it('runs a command at once and routes stdout and stderr to their channels', async () => {
    const io = collect();
    const target = fakeTarget((_a, _s, out) => {
      out('stdout', 'hi\n');
      out('stderr', 'warn\n');
      return 3;
    });
    const s = new ExecSession({ argv: ['sh', '-c', 'echo hi; exit 3'], streams: { stdin: false, stdout: true, stderr: true, tty: false }, target, write: io.write });
    expect(await s.run()).toBe(3);
    expect(io.out).toEqual(['1:hi\n', '2:warn\n']);
  });

  it('collects stdin until the client closes it, then runs the command with it', async () => {
    const io = collect();
    const target = fakeTarget((_a, stdin, out) => {
      out('stdout', stdin ?? '');
      return 0;
    });
    const s = new ExecSession({ argv: ['cat'], streams: { stdin: true, stdout: true, stderr: true, tty: false }, target, write: io.write });
    const done = s.run();
    s.input('x\n');
    s.input('y\n');
    expect(target.calls).toEqual([]);
    s.closeInput();
    expect(await done).toBe(0);
    expect(target.calls).toEqual([{ argv: ['cat'], stdin: 'x\ny\n' }]);
    expect(io.out).toEqual(['1:x\ny\n']);
  });

  it('runs `sh` fed by a pipe line by line, keeping the directory, and ends with exit N', async () => {
    const io = collect();
    const target = fakeTarget((argv, _s, out) => {
      if (argv[2] === 'pwd') out('stdout', 'pwd-ran\n');
      return /^exit (\d+)$/.exec(argv[2] ?? '') ? Number(/\d+/.exec(argv[2]!)![0]) : 0;
    });
    const s = new ExecSession({ argv: ['sh'], streams: { stdin: true, stdout: true, stderr: true, tty: false }, target, write: io.write });
    const done = s.run();
    s.input('cd /tmp\npwd\nexit 4\necho never\n');
    expect(await done).toBe(4);
    expect(target.calls).toEqual([
      { argv: ['sh', '-c', 'cd /tmp'], cwd: '/' },
      { argv: ['sh', '-c', 'pwd'], cwd: '/tmp' },
      { argv: ['sh', '-c', 'exit 4'], cwd: '/tmp' },
    ]);
    expect(io.out).toEqual(['1:pwd-ran\n']);
  });

  it('with a tty: prompts, echoes, waits for the end of a compound command (PS2), and Ctrl-D ends with the last status', async () => {
    const io = collect();
    const target = fakeTarget((argv, _s, out) => {
      out('stdout', `ran:${argv[2]}\n`);
      return 1;
    });
    const s = new ExecSession({ argv: ['/bin/sh'], streams: { stdin: true, stdout: true, stderr: false, tty: true }, target, write: io.write, prompt: (cwd) => `${cwd} # ` });
    const done = s.run();
    s.input('if true; then\r');
    await new Promise((r) => setImmediate(r));
    s.input('echo a; fi\r');
    await new Promise((r) => setImmediate(r));
    s.input('\x04');
    expect(await done).toBe(1);
    expect(io.out.join('')).toBe('1:/ # 1:if true; then\r\n1:> 1:echo a; fi\r\n1:ran:if true; then\r\necho a; fi\r\n1:/ # 1:\r\n');
  });

  it('Ctrl-C stops the running line (status 130) and the shell goes on', async () => {
    const io = collect();
    const target = fakeTarget((argv, _s, _out, _cwd, signal) => (argv[2] === 'sleep 100' ? new Promise<number>((r) => signal!.addEventListener('abort', () => r(0))) : 0));
    const s = new ExecSession({ argv: ['sh'], streams: { stdin: true, stdout: true, stderr: false, tty: true }, target, write: io.write });
    const done = s.run();
    s.input('sleep 100\r');
    await new Promise((r) => setImmediate(r));
    s.input('\x03');
    await new Promise((r) => setImmediate(r));
    s.input('exit\r');
    expect(await done).toBe(0);
    expect(io.out.join('')).toBe('1:# 1:sleep 100\r\n1:^C\r\n1:# 1:exit\r\n');
  });

  it('a lost connection ends a session waiting for input', async () => {
    const s = new ExecSession({ argv: ['sh'], streams: { stdin: true, stdout: true, stderr: true, tty: false }, target: fakeTarget(() => 0), write: () => {} });
    const done = s.run();
    s.abort();
    expect(await done).toBe(137);
  });
});

describe('shell helpers', () => {
  it.each([
    [['sh'], true],
    [['/bin/bash', '-i'], true],
    [['sh', '-c', 'ls'], false],
    [['cat'], false],
    [['sh', 'script.sh'], false],
  ])('isInteractiveShell(%j) = %s', (argv, want) => expect(isInteractiveShell(argv)).toBe(want));

  it.each([
    ['if true; then', true],
    ['for i in 1 2; do', true],
    ["echo 'open", true],
    ['echo done', false],
    ['fi', false],
  ])('isIncomplete(%j) = %s', (text, want) => expect(isIncomplete(text)).toBe(want));

  it.each([
    ['exit', true],
    ['exit 3', true],
    ['echo a; exit 2', true],
    ['if false; then exit 1; fi', false],
    ['echo exit', false],
  ])('exitsShell(%j) = %s', (text, want) => expect(exitsShell(text)).toBe(want));
});
