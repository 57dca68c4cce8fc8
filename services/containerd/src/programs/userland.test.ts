import { connect as netConnect, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { setNodeReadOnly } from '../node-faults.js';
import { chunkText } from '../output.js';
import { ExecSession, isTerminalProgram } from '../streaming/session.js';
import { startProcess, type StartedProcess } from '../testing/process.js';
import { NC_USAGE, ashText, parseNcArgs, shellDialect } from './userland.js';
import { ViBuffer, splitKeys } from './vi.js';

let s: StartedProcess | undefined;
let server: Server | undefined;
afterEach(() => {
  s?.p.kill();
  s = undefined;
  server?.close();
  server = undefined;
  setNodeReadOnly(false);
});

const BUSYBOX = { '/etc/os-release': 'NAME="BusyBox"\nID=busybox\n', '/etc/passwd': 'root:x:0:0:root:/root:/bin/sh\n' };
const ALPINE = { '/etc/os-release': 'NAME="Alpine Linux"\nID=alpine\n', '/etc/passwd': 'root:x:0:0:root:/root:/bin/sh\n' };
const DEBIAN = { '/etc/os-release': 'NAME="Debian GNU/Linux"\nID=debian\n', '/etc/passwd': 'root:x:0:0:root:/root:/bin/bash\n' };
const sh = async (script: string) => s!.p.execSync(['sh', '-c', script], 5000);

describe('the image shell', () => {
  it('is ash for busybox and alpine, bash for Debian-based images', () => {
    expect([shellDialect(BUSYBOX), shellDialect(ALPINE), shellDialect(DEBIAN), shellDialect({})]).toEqual(['ash', 'ash', 'bash', 'bash']);
  });

  it.each([
    ['foo', 'sh: foo: not found\n', 127],
    ['nslookupx kubernetes', 'sh: nslookupx: not found\n', 127],
    ['bash -c true', 'sh: bash: not found\n', 127],
    ['jq .', 'sh: jq: not found\n', 127],
    ['/bin/jq .', 'sh: /bin/jq: not found\n', 127],
    ['cd /nope', "sh: cd: can't cd to /nope: No such file or directory\n", 1],
    ['cat < /nofile', "sh: can't open /nofile: no such file\n", 1],
    ['if then', 'sh: syntax error: unexpected "fi"\n', 2],
  ])('busybox: `%s` prints ash text', async (script, stderr, exitCode) => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX });
    expect(await sh(script)).toMatchObject({ stderr, exitCode });
  });

  it.each([
    ['foo', 'bash: foo: command not found\n', 127],
    ['jq .', 'bash: jq: command not found\n', 127],
    ['nc localhost 80', 'bash: nc: command not found\n', 127],
  ])('debian: `%s` keeps bash text', async (script, stderr, exitCode) => {
    s = startProcess(['sleep', '3600'], { files: DEBIAN });
    expect(await sh(script)).toMatchObject({ stderr, exitCode });
  });

  it('$0 is sh in busybox and bash in Debian; `sh -c foo` as PID 1 logs ash text', async () => {
    s = startProcess(['sleep', '3600'], { files: ALPINE });
    expect((await sh('echo $0')).stdout).toBe('sh\n');
    s.p.kill();
    s = startProcess(['sleep', '3600'], { files: DEBIAN });
    expect((await sh('echo $0')).stdout).toBe('bash\n');
    s.p.kill();
    s = startProcess(['sh', '-c', 'foo'], { files: BUSYBOX });
    await s.p.exited;
    expect(s.log).toEqual(['stderr: sh: foo: not found']);
  });

  it("a redirection on a read-only filesystem: ash's can't create, bash's own text", async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX });
    setNodeReadOnly(true);
    expect(await sh('echo hi > /tmp/y')).toMatchObject({ stderr: "sh: can't create /tmp/y: Read-only file system\n", exitCode: 1 });
    s.p.kill();
    s = startProcess(['sleep', '3600'], { files: DEBIAN });
    expect(await sh('echo hi > /tmp/y')).toMatchObject({ stderr: 'bash: /tmp/y: Read-only file system\n' });
  });

  it("touch on a read-only node filesystem: busybox's words as an exec'd command, coreutils' in Debian", async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX });
    setNodeReadOnly(true);
    expect(await s.p.execSync(['touch', '/tmp/x'], 5000)).toMatchObject({ stderr: 'touch: /tmp/x: Read-only file system\n', exitCode: 1 });
    s.p.kill();
    s = startProcess(['sleep', '3600'], { files: DEBIAN });
    expect(await s.p.execSync(['touch', '/tmp/x'], 5000)).toMatchObject({ stderr: "touch: cannot touch '/tmp/x': Read-only file system\n", exitCode: 1 });
  });

  it("ls /bin has the image's commands: busybox applets without bash, Debian with bash; no interpreter extras or helpers", async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX, programs: ['ps', 'vi'] });
    const bin = (await sh('ls /bin')).stdout.split('\n');
    expect(bin).toEqual(expect.arrayContaining(['cat', 'env', 'nc', 'printenv', 'ps', 'sh', 'vi', 'wc']));
    for (const n of ['bash', 'jq', 'sqlite3', 'rg', 'alias', 'trap']) expect(bin).not.toContain(n);
    expect(bin.filter((n) => n.startsWith('__'))).toEqual([]);
    s.p.kill();
    s = startProcess(['sleep', '3600'], { files: DEBIAN });
    const debian = (await sh('ls /bin')).stdout.split('\n');
    expect(debian).toEqual(expect.arrayContaining(['bash', 'cat', 'env', 'sh']));
    for (const n of ['jq', 'nc', 'vi']) expect(debian).not.toContain(n);
  });

  it.each([
    ["touch: cannot touch '/tmp/x': Read-only file system\n", 'touch: /tmp/x: Read-only file system\n'],
    ["mkdir: cannot create directory '/d': Read-only file system\n", "mkdir: can't create directory '/d': Read-only file system\n"],
    ["rm: cannot remove '/f': Permission denied\n", "rm: can't remove '/f': Permission denied\n"],
  ])('words the applets as busybox does: %j', (gnu, busybox) => {
    expect(ashText(gnu)).toBe(busybox);
  });

  it('rewrites only bash-worded lines', () => {
    expect(ashText('ls: /nope: No such file or directory\nbash: x: command not found\n')).toBe('ls: /nope: No such file or directory\nsh: x: not found\n');
  });
});

describe('busybox, the multi-call binary', () => {
  it('runs an applet by name, lists the applets, refuses an unknown one', async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX });
    expect(await sh('busybox echo hi')).toMatchObject({ stdout: 'hi\n', exitCode: 0 });
    const list = (await sh('busybox --list')).stdout.split('\n');
    expect(list).toEqual(expect.arrayContaining(['cat', 'ls', 'wc', 'whoami']));
    expect(list).not.toContain('bash');
    expect(list).not.toContain('jq');
    expect(await sh('busybox frobnicate')).toMatchObject({ stderr: 'frobnicate: applet not found\n', exitCode: 127 });
    const usage = await sh('busybox');
    expect(usage.stdout).toMatch(/^BusyBox v1\.36\.1 \(2023-05-18 22:34:17 UTC\) multi-call binary\.\n/);
    expect(usage.stdout).toContain('Usage: busybox [function [arguments]...]\n');
    expect(usage.stdout).toMatch(/Currently defined functions:\n\t.*\bwc\b/);
  });

  it('does not exist in Debian-based images', async () => {
    s = startProcess(['sleep', '3600'], { files: DEBIAN });
    expect(await sh('busybox ls')).toMatchObject({ stderr: 'bash: busybox: command not found\n', exitCode: 127 });
  });
});

describe('env and printenv', () => {
  it('print exported variables only, none of the shell or the runtime', async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX, env: { FOO: 'bar' } });
    expect((await sh('X=1; export Y=2; env')).stdout).toBe('HOME=/root\nPATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\nPWD=/\nFOO=bar\nY=2\n');
    expect(await sh('printenv FOO NOPE')).toMatchObject({ stdout: 'bar\n', exitCode: 1 });
    expect((await sh('env -i A=1')).stdout).toBe('A=1\n');
    expect((await sh('env -u FOO | grep -c FOO')).stdout).toBe('0\n');
    expect((await sh('env Z=9 printenv Z')).stdout).toBe('9\n');
  });

  it('an unknown option: busybox usage in busybox, coreutils text in Debian', async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX });
    expect((await sh('env -x')).stderr).toBe(
      "env: unrecognized option '-x'\nBusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: env [-i] [-0] [-u NAME]... [-] [NAME=VALUE]... [PROG ARGS]\n",
    );
    s.p.kill();
    s = startProcess(['sleep', '3600'], { files: DEBIAN });
    expect(await sh('env -x')).toMatchObject({ stderr: "env: invalid option -- 'x'\nTry 'env --help' for more information.\n", exitCode: 125 });
  });
});

describe('nc (busybox)', () => {
  it.each([
    [['-lp', '8080'], { listen: true, port: 8080 }],
    [['-w1', 'db', '5432'], { wait: 1, operands: ['db', '5432'] }],
    [['-zv', 'db', '80'], { zero: true, verbose: true }],
    [['-q'], { error: "nc: invalid option -- 'q'\n" }],
    [['-p'], { error: "nc: option requires an argument -- 'p'\n" }],
  ])('parses %j', (args, want) => {
    expect(parseNcArgs(args)).toMatchObject(want);
  });

  it('prints its usage without operands, and connection errors as busybox does', async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX });
    expect(await sh('nc')).toMatchObject({ stderr: NC_USAGE, exitCode: 1 });
    expect(NC_USAGE.split('\n').slice(0, 4)).toEqual([
      'BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.',
      '',
      'Usage: nc [OPTIONS] HOST PORT  - connect',
      'nc [OPTIONS] -l -p PORT [HOST] [PORT]  - listen',
    ]);
    expect(await sh('nc 127.0.0.1 1')).toMatchObject({ stderr: "nc: can't connect to remote host (127.0.0.1): Connection refused\n", exitCode: 1 });
  });

  it('HOST PORT sends stdin and prints the reply until the peer closes, or -w seconds after it', async () => {
    s = startProcess(['sh', '-c', 'echo pong | nc -l -p 9000'], { files: BUSYBOX, network: true, timeScale: 20 });
    for (let i = 0; i < 100 && !s.ports.get(9000); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await sh('echo ping | nc -w 1 127.0.0.1 9000')).toMatchObject({ stdout: 'pong\n', exitCode: 0 });
    expect((await s.p.exited).exitCode).toBe(0);
    expect(s.log).toEqual(['stdout: ping']);
  });

  it('-l -p PORT serves one connection: prints what the client sent and answers with stdin', async () => {
    s = startProcess(['sh', '-c', 'echo pong | nc -l -p 9000 -w 1'], { files: BUSYBOX, network: true, timeScale: 20 });
    let mapped: { hostIp: string; hostPort: number } | undefined;
    for (let i = 0; i < 100 && !(mapped = s.ports.get(9000)); i++) await new Promise((r) => setTimeout(r, 20));
    const reply = await new Promise<string>((resolve) => {
      const c = netConnect(mapped!.hostPort, mapped!.hostIp, () => c.write('ping\n'));
      let got = '';
      c.on('data', (d) => (got += d.toString()));
      c.on('close', () => resolve(got));
    });
    expect(reply).toBe('pong\n');
    const exit = await s.p.exited;
    expect(exit.exitCode).toBe(0);
    expect(s.log).toEqual(['stdout: ping']);
  });
});

describe('vi', () => {
  it('splits keys: escape sequences whole, a lone Esc alone', () => {
    expect(splitKeys('ia\x1b[A\x1b:')).toEqual(['i', 'a', '\x1b[A', '\x1b', ':']);
  });

  it.each([
    ['insert, Esc, :wq', undefined, ['i', 'h', 'e', 'y', '\x1b', ':', 'w', 'q', '\r'], 'hey\n'],
    ['x deletes a character, dd a line', 'one\ntwo\n', ['x', 'j', 'd', 'd', ':', 'w', 'q', '\r'], 'ne\n'],
    ['o opens a line, arrows move', 'a\n', ['o', 'b', '\x1b[A', '\x1b', 'A', 'z', '\x1b', ':', 'x', '\r'], 'az\nb\n'],
    ['Enter splits, Backspace joins', 'ab\n', ['a', '\r', '\x7f', '!', '\x1b', 'Z', 'Z'], 'a!b\n'],
  ])('%s', async (_name, text, keys, want) => {
    let saved: string | undefined;
    const b = new ViBuffer('/tmp/f', text, async (_p, t) => void (saved = t));
    for (const k of keys) await b.key(k);
    expect(saved).toBe(want);
    expect(b.quit).toBe(0);
  });

  it(':q refuses a modified buffer, :q! quits without writing', async () => {
    let saved = false;
    const b = new ViBuffer('/tmp/f', 'x\n', async () => void (saved = true));
    for (const k of ['x', ':', 'q', '\r']) await b.key(k);
    expect([b.quit, b.status]).toEqual([undefined, 'No write since last change (:quit! overrides)']);
    for (const k of [':', 'q', '!', '\r']) await b.key(k);
    expect([b.quit, saved]).toEqual([0, false]);
  });

  it('draws the file, ~ past its end and the status row', () => {
    const screen = new ViBuffer('/tmp/f', 'hello\n', async () => undefined, 4, 80).screen();
    expect(screen).toBe('\x1b[H\x1b[Jhello\r\n~\r\n~\r\n"/tmp/f" 1L, 6C\x1b[1;1H');
  });

  it('edits a file of the container with keys from stdin when there is no terminal', async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX, programs: ['vi'] });
    expect(await sh(`printf 'ihello\\033:wq\\n' | vi /tmp/f; cat /tmp/f`)).toMatchObject({ stdout: 'hello\n', exitCode: 0 });
  });

  it('edits on the exec terminal of `kubectl exec -it` (raw keys, screen drawn)', async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX, programs: ['vi'] });
    const out: string[] = [];
    const session = new ExecSession({ argv: ['vi', '/tmp/f'], streams: { stdin: true, stdout: true, stderr: false, tty: true }, target: s.p, write: (_c, t) => void out.push(chunkText(t)) });
    const done = session.run();
    for (const k of ['i', 'hi there', '\x1b', ':wq', '\r']) {
      await new Promise((r) => setTimeout(r, 10));
      session.input(k);
    }
    expect(await done).toBe(0);
    expect(out.join('')).toContain('"/tmp/f" [New file]');
    expect(out.join('')).toContain('-- INSERT --');
    expect((await sh('cat /tmp/f')).stdout).toBe('hi there\n');
  });

  it('runs from the interactive shell of `kubectl exec -it POD -- sh` on its terminal, then the shell prompts again', async () => {
    s = startProcess(['sleep', '3600'], { files: BUSYBOX, programs: ['vi'] });
    const out: string[] = [];
    const session = new ExecSession({ argv: ['sh'], streams: { stdin: true, stdout: true, stderr: false, tty: true }, target: s.p, write: (_c, t) => void out.push(chunkText(t)) });
    const done = session.run();
    for (const k of ['vi /tmp/g\r', 'i', 'typed', '\x1b', ':wq\r', 'cat /tmp/g\r', 'exit\r']) {
      await new Promise((r) => setTimeout(r, 30));
      session.input(k);
    }
    expect(await done).toBe(0);
    expect(out.join('')).toContain('"/tmp/g" [New file]');
    expect(out.join('').endsWith('# cat /tmp/g\r\ntyped\r\n# exit\r\n')).toBe(true);
  });
});

describe('redis-cli on a terminal', () => {
  it('is a terminal program without a command, one-shot with one', () => {
    expect([isTerminalProgram(['redis-cli', '-h', 'redis']), isTerminalProgram(['redis-cli', '-h', 'redis', 'PING']), isTerminalProgram(['vi', '/f']), isTerminalProgram(['sh'])]).toEqual([
      true,
      false,
      true,
      false,
    ]);
  });

  it('prompts host:port> and answers PING, SET, GET until quit', async () => {
    s = startProcess(['redis-server'], { programs: ['redis-server', 'redis-cli'], network: true, env: { REDIS_VERSION: '7.4.1' } });
    for (let i = 0; i < 100 && !s.ports.get(6379); i++) await new Promise((r) => setTimeout(r, 20));
    const out: string[] = [];
    const session = new ExecSession({
      argv: ['redis-cli', '-h', '127.0.0.1'],
      streams: { stdin: true, stdout: true, stderr: false, tty: true },
      target: s.p,
      write: (_c, t) => void out.push(chunkText(t)),
    });
    const done = session.run();
    for (const line of ['PING\r', 'SET k v\r', 'GET k\r', 'quit\r']) {
      await new Promise((r) => setTimeout(r, 30));
      session.input(line);
    }
    expect(await done).toBe(0);
    expect(out.join('')).toBe('127.0.0.1:6379> PING\r\nPONG\r\n127.0.0.1:6379> SET k v\r\nOK\r\n127.0.0.1:6379> GET k\r\n"v"\r\n127.0.0.1:6379> quit\r\n');
  });
});
