import { InMemoryFs } from 'just-bash';
import { extract, pack } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import { RECORD_BYTES, memberName, parseTarArgs, runTar, type TarFs, type TarOptions } from './tar.js';

const TRY = "Try 'tar --help' or 'tar --usage' for more information.\n";

describe('parseTarArgs', () => {
  it.each<[string, string[], Partial<TarOptions>]>([
    ['kubectl cp from a pod', ['cf', '-', '/etc/hostname'], { mode: 'create', file: '-', operands: ['/etc/hostname'] }],
    ['kubectl cp to a pod', ['-xmf', '-', '-C', '/tmp'], { mode: 'extract', file: '-', touch: true, directory: '/tmp', operands: [] }],
    ['kubectl cp --no-preserve', ['--no-same-permissions', '--no-same-owner', '-xmf', '-', '-C', '/tmp/d'], { mode: 'extract', noSamePermissions: true, touch: true, directory: '/tmp/d' }],
    ['old style with an argument later', ['xvf', 'a.tar'], { mode: 'extract', verbose: true, file: 'a.tar' }],
    ['argument glued to its option', ['-tfa.tar'], { mode: 'list', file: 'a.tar' }],
    ['long options with =', ['--create', '--file=x.tar', '--directory=/srv', 'app'], { mode: 'create', file: 'x.tar', directory: '/srv', operands: ['app'] }],
    ['-- ends the options', ['-c', '-f', '-', '--', '-odd'], { operands: ['-odd'] }],
    ['gzip, as the JS client copies from a pod', ['zcf', '-', 'app'], { mode: 'create', gzip: true, operands: ['app'] }],
    ['gzip spelled long', ['--gunzip', '-xf', 'a.tgz'], { mode: 'extract', gzip: true, file: 'a.tgz' }],
  ])('%s', (_name, args, want) => {
    const r = parseTarArgs(args);
    expect(r.ok && r.options).toMatchObject(want);
  });

  it.each<[string, string[], string]>([
    ['no operation', ['f', '-'], `tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\n${TRY}`],
    ['two operations', ['-cx'], `tar: You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option\n${TRY}`],
    ['nothing to archive', ['cf', '-'], `tar: Cowardly refusing to create an empty archive\n${TRY}`],
    ['unknown long option', ['--frobnicate', '-x'], `tar: unrecognized option '--frobnicate'\n${TRY}`],
    ['unknown short option', ['-xQ'], `tar: invalid option -- 'Q'\n${TRY}`],
    ['-f without its argument', ['-xf'], `tar: option requires an argument -- 'f'\n${TRY}`],
  ])('refuses %s as GNU tar does', (_name, args, stderr) => {
    expect(parseTarArgs(args)).toEqual({ ok: false, stderr });
  });
});

describe('memberName', () => {
  it.each<[string, boolean, { name: string; stripped?: string }]>([
    ['/etc/hostname', false, { name: 'etc/hostname', stripped: '/' }],
    ['//etc', false, { name: 'etc', stripped: '/' }],
    ['../x', false, { name: 'x', stripped: '../' }],
    ['/../x', false, { name: 'x', stripped: '/../' }],
    ['tmp/a', false, { name: 'tmp/a' }],
    ['/', false, { name: '.', stripped: '/' }],
    ['/etc/hostname', true, { name: '/etc/hostname' }],
  ])('%s (absolute names: %s)', (path, absolute, want) => {
    expect(memberName(path, absolute)).toEqual(want);
  });
});

const BIN = Buffer.from([0x00, 0x80, 0xff, 0xc3, 0x28, 0x0a]);
const MTIME = new Date('2024-05-01T10:00:00Z');

function fsWith(files: Record<string, string | Uint8Array>): InMemoryFs {
  const fs = new InMemoryFs();
  for (const [p, c] of Object.entries(files)) fs.writeFileSync(p, c, undefined, { mtime: MTIME });
  return fs;
}

function opts(o: Partial<TarOptions>): TarOptions {
  return { mode: 'create', file: '-', verbose: false, touch: false, noSamePermissions: false, absoluteNames: false, gzip: false, operands: [], ...o };
}

/** The members of an archive: name, type, mode, mtime and content. */
async function members(archive: Buffer): Promise<{ name: string; type: string; mode: string; mtime: string; body?: string }[]> {
  const out: { name: string; type: string; mode: string; mtime: string; body?: string }[] = [];
  const x = extract();
  x.end(archive);
  for await (const e of x) {
    const chunks: Buffer[] = [];
    for await (const c of e) chunks.push(c as Buffer);
    const h = e.header;
    out.push({ name: h.name, type: h.type, mode: h.mode.toString(8), mtime: h.mtime.toISOString(), ...(h.type === 'file' ? { body: Buffer.concat(chunks).toString('hex') } : {}) });
  }
  return out;
}

describe('tar create', () => {
  it('strips the leading / with GNU tar notice and pads the archive to a whole record', async () => {
    const fs = fsWith({ '/etc/hostname': 'web\n' });
    const r = await runTar(fs as unknown as TarFs, '/', opts({ operands: ['/etc/hostname'] }), Buffer.alloc(0));
    expect(r.stderr).toBe("tar: Removing leading `/' from member names\n");
    expect(r.exitCode).toBe(0);
    const archive = r.stdout as Buffer;
    expect(archive.length).toBe(RECORD_BYTES);
    expect(await members(archive)).toEqual([{ name: 'etc/hostname', type: 'file', mode: '644', mtime: MTIME.toISOString(), body: Buffer.from('web\n').toString('hex') }]);
  });

  it('archives a directory recursively with modes, mtimes, symlinks and bytes as they are', async () => {
    const fs = fsWith({ '/srv/d/bin.dat': BIN, '/srv/d/sub/a.txt': 'héllo\n' });
    await fs.chmod('/srv/d/bin.dat', 0o755);
    await fs.symlink('bin.dat', '/srv/d/link');
    const r = await runTar(fs as unknown as TarFs, '/srv', opts({ operands: ['d/'] }), Buffer.alloc(0));
    expect(r.stderr).toBe('');
    const got = await members(r.stdout as Buffer);
    expect(got.map((m) => [m.name, m.type, m.mode])).toEqual([
      ['d/', 'directory', '755'],
      ['d/bin.dat', 'file', '755'],
      ['d/link', 'symlink', '777'],
      ['d/sub/', 'directory', '755'],
      ['d/sub/a.txt', 'file', '644'],
    ]);
    expect(got[1]!.body).toBe(BIN.toString('hex'));
    expect(got[4]!.body).toBe(Buffer.from('héllo\n').toString('hex'));
  });

  it('reports a missing operand and fails with 2, archiving the rest', async () => {
    const fs = fsWith({ '/a': 'a' });
    const r = await runTar(fs as unknown as TarFs, '/', opts({ operands: ['nope', 'a'] }), Buffer.alloc(0));
    expect(r.stderr).toBe('tar: nope: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n');
    expect(r.exitCode).toBe(2);
    expect((await members(r.stdout as Buffer)).map((m) => m.name)).toEqual(['a']);
  });

  it('writes the archive to a file with -f, listing with -v on stdout', async () => {
    const fs = fsWith({ '/a': 'a' });
    const r = await runTar(fs as unknown as TarFs, '/', opts({ file: '/tmp/a.tar', verbose: true, operands: ['a'] }), Buffer.alloc(0));
    expect(r).toEqual({ stdout: 'a\n', stderr: '', exitCode: 0 });
    expect((await members(Buffer.from(await fs.readFileBuffer('/tmp/a.tar')))).map((m) => m.name)).toEqual(['a']);
  });
});

/** An archive as Go's archive/tar writes it for kubectl cp: the destination's relative names. */
async function archiveOf(entries: { name: string; type?: 'file' | 'directory' | 'symlink'; mode?: number; body?: Buffer; linkname?: string }[]): Promise<Buffer> {
  const p = pack();
  for (const e of entries) p.entry({ name: e.name, type: e.type ?? 'file', mode: e.mode ?? 0o644, mtime: MTIME, ...(e.linkname ? { linkname: e.linkname } : {}) }, e.body ?? Buffer.alloc(0));
  p.finalize();
  const chunks: Buffer[] = [];
  for await (const c of p) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('tar extract', () => {
  it('extracts into -C, keeping bytes, modes and mtimes', async () => {
    const fs = fsWith({ '/tmp/.keep': '' });
    const archive = await archiveOf([
      { name: 'd/', type: 'directory', mode: 0o755 },
      { name: 'd/bin.dat', mode: 0o750, body: BIN },
      { name: 'd/l', type: 'symlink', linkname: 'bin.dat' },
    ]);
    const r = await runTar(fs as unknown as TarFs, '/', opts({ mode: 'extract', directory: '/tmp' }), archive);
    expect(r).toEqual({ stdout: '', stderr: '', exitCode: 0 });
    expect(Buffer.from(await fs.readFileBuffer('/tmp/d/bin.dat'))).toEqual(BIN);
    const st = await fs.stat('/tmp/d/bin.dat');
    expect([(st.mode & 0o7777).toString(8), st.mtime.toISOString()]).toEqual(['750', MTIME.toISOString()]);
    expect(await fs.readlink('/tmp/d/l')).toBe('bin.dat');
  });

  it('-m gives the extraction time and --no-same-permissions applies the umask', async () => {
    const fs = fsWith({ '/tmp/.keep': '' });
    const now = new Date('2026-01-01T00:00:00Z');
    const archive = await archiveOf([{ name: 'x', mode: 0o777, body: Buffer.from('x') }]);
    await runTar(fs as unknown as TarFs, '/tmp', opts({ mode: 'extract', touch: true, noSamePermissions: true }), archive, () => now);
    const st = await fs.stat('/tmp/x');
    expect([(st.mode & 0o7777).toString(8), st.mtime.toISOString()]).toEqual(['755', now.toISOString()]);
  });

  it.each<[string, Buffer | (() => Promise<Buffer>), Partial<TarOptions>, { stderr: string; exitCode: number }]>([
    ['an empty stdin', Buffer.alloc(0), {}, { stderr: 'tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n', exitCode: 2 }],
    [
      'text that is no archive',
      Buffer.from('hello world\n'.repeat(100)),
      {},
      { stderr: 'tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n', exitCode: 2 },
    ],
    ['a missing -C directory', Buffer.alloc(0), { directory: '/nope' }, { stderr: 'tar: /nope: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n', exitCode: 2 }],
    [
      'a member climbing out',
      () => archiveOf([{ name: 'a/../../evil', body: Buffer.from('x') }]),
      {},
      { stderr: "tar: a/../../evil: Member name contains '..'\ntar: Exiting with failure status due to previous errors\n", exitCode: 2 },
    ],
    ['an absolute member', () => archiveOf([{ name: '/abs', body: Buffer.from('x') }]), {}, { stderr: "tar: Removing leading `/' from member names\n", exitCode: 0 }],
  ])('answers %s as GNU tar does', async (_name, input, o, want) => {
    const fs = fsWith({ '/tmp/.keep': '' });
    const archive = typeof input === 'function' ? await input() : input;
    const r = await runTar(fs as unknown as TarFs, '/tmp', opts({ mode: 'extract', ...o }), archive);
    expect({ stderr: r.stderr, exitCode: r.exitCode }).toEqual(want);
    expect(await fs.exists('/evil')).toBe(false);
  });

  it('-z: a gzip archive on create; read back with or without -z (gzip is recognised), refused when -z meets a plain one', async () => {
    const fs = fsWith({ '/srv/app/a.txt': 'hello\n' });
    const made = await runTar(fs as unknown as TarFs, '/srv', opts({ gzip: true, operands: ['app'] }), Buffer.alloc(0));
    const gz = made.stdout as Buffer;
    expect([gz[0], gz[1]]).toEqual([0x1f, 0x8b]);
    for (const gzip of [true, false]) expect(await runTar(fsWith({}) as unknown as TarFs, '/', opts({ mode: 'list', gzip }), gz)).toEqual({ stdout: 'app/\napp/a.txt\n', stderr: '', exitCode: 0 });
    const plain = await archiveOf([{ name: 'f' }]);
    expect(await runTar(fsWith({}) as unknown as TarFs, '/', opts({ mode: 'list', gzip: true }), plain)).toEqual({
      stdout: '',
      stderr: 'gzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n',
      exitCode: 2,
    });
  });

  it('lists members with -t', async () => {
    const archive = await archiveOf([{ name: 'd/', type: 'directory' }, { name: 'd/f' }]);
    const r = await runTar(fsWith({}) as unknown as TarFs, '/', opts({ mode: 'list' }), archive);
    expect(r).toEqual({ stdout: 'd/\nd/f\n', stderr: '', exitCode: 0 });
  });
});
