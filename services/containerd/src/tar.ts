// `tar` in the simulated userland, as GNU tar behaves for what kubectl cp and
// learners run: `tar cf - PATH...` (kubectl cp from a pod), `tar -xmf - -C
// DIR` and `tar --no-same-permissions --no-same-owner -xmf - -C DIR` (kubectl
// cp to a pod), `tar tf`, `-v`, `-C`, archives on stdin/stdout or in files.
// As GNU tar: leading `/` is stripped from member names with one notice on
// stderr; directories are archived recursively (entries sorted by name, the
// order `--sort=name` gives); modes, mtimes and symlinks are kept; the archive
// is padded to a whole record (20 blocks of 512 bytes). The format itself is
// tar-stream's ustar; this module only decides what goes in and where it
// lands. Ownership is root's: the simulated filesystem has no owners.

import { posix } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { defineCommand, latin1FromBytes, type Command } from 'just-bash';
import type { Header } from 'tar-stream';

type Headers = Partial<Header> & Pick<Header, 'name'>;

/** What a tar run needs of the filesystem (just-bash's IFileSystem has it). */
export interface TarFs {
  stat(path: string): Promise<{ isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean; mode: number; mtime: Date; size?: number }>;
  lstat(path: string): Promise<{ isFile: boolean; isDirectory: boolean; isSymbolicLink: boolean; mode: number; mtime: Date; size?: number }>;
  readdir(path: string): Promise<string[]>;
  readFileBuffer(path: string): Promise<Uint8Array>;
  readlink(path: string): Promise<string>;
  writeFile(path: string, content: Uint8Array): Promise<void>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  chmod(path: string, mode: number): Promise<void>;
  utimes(path: string, atime: Date, mtime: Date): Promise<void>;
  symlink(target: string, linkPath: string): Promise<void>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  exists(path: string): Promise<boolean>;
}

export interface TarOptions {
  mode: 'create' | 'extract' | 'list';
  /** Archive path; '-' is stdin/stdout (GNU's default when TAPE is unset is a device; kubectl always says -f -). */
  file: string;
  directory?: string;
  verbose: boolean;
  /** -m: extracted files get the extraction time, not the archived mtime. */
  touch: boolean;
  /** --no-same-permissions: the umask applies to extracted modes. */
  noSamePermissions: boolean;
  /** -P: keep leading `/` and `..`. */
  absoluteNames: boolean;
  /** -z: the archive is gzip-compressed (on reading, GNU tar also recognises gzip by itself). */
  gzip: boolean;
  operands: string[];
}

export type Parsed = { ok: true; options: TarOptions } | { ok: false; stderr: string };

const TRY = "Try 'tar --help' or 'tar --usage' for more information.\n";
/** GNU tar's record: the blocking factor 20 times 512-byte blocks. */
export const RECORD_BYTES = 20 * 512;
/** The process umask of a container's root shell: what --no-same-permissions applies. */
const UMASK = 0o022;
/** Options that take an argument. */
const WITH_ARG = new Set(['f', 'C', 'b', 'T', 'X']);
/** Accepted and without effect here (owners, dereferencing, blocking, preserving what is preserved anyway). */
const IGNORED_SHORT = new Set(['h', 'p', 'o', 'b', 'z0']);
const IGNORED_LONG = new Set(['--no-same-owner', '--same-owner', '--same-permissions', '--preserve-permissions', '--dereference', '--numeric-owner', '--overwrite', '--no-overwrite-dir']);

/** Parses GNU tar's argv: old-style bundled first word (`cf`), short clusters (`-xmf -`) and long options. */
export function parseTarArgs(args: string[]): Parsed {
  const o: TarOptions = { mode: 'create', file: '-', verbose: false, touch: false, noSamePermissions: false, absoluteNames: false, gzip: false, operands: [] };
  let mode: TarOptions['mode'] | undefined;
  const setMode = (m: TarOptions['mode']): string | undefined => {
    if (mode && mode !== m) return "tar: You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option\n" + TRY;
    mode = m;
    return undefined;
  };
  const rest = [...args];
  // Old style: a first word without a dash is a cluster of letters whose arguments follow in order.
  if (rest[0] !== undefined && !rest[0].startsWith('-') && rest[0] !== '') rest[0] = `-${rest[0]}`;
  const short = (letter: string, value: () => string | undefined): string | undefined => {
    switch (letter) {
      case 'c':
        return setMode('create');
      case 'x':
        return setMode('extract');
      case 't':
        return setMode('list');
      case 'v':
        o.verbose = true;
        return undefined;
      case 'm':
        o.touch = true;
        return undefined;
      case 'P':
        o.absoluteNames = true;
        return undefined;
      case 'z':
        o.gzip = true;
        return undefined;
      case 'f':
      case 'C': {
        const v = value();
        if (v === undefined) return `tar: option requires an argument -- '${letter}'\n${TRY}`;
        if (letter === 'f') o.file = v;
        else o.directory = v;
        return undefined;
      }
      default:
        if (IGNORED_SHORT.has(letter)) return undefined;
        return `tar: invalid option -- '${letter}'\n${TRY}`;
    }
  };
  let onlyOperands = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (onlyOperands || a === '-' || !a.startsWith('-')) {
      o.operands.push(a);
      continue;
    }
    if (a === '--') {
      onlyOperands = true;
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a : a.slice(0, eq);
      const inline = eq < 0 ? undefined : a.slice(eq + 1);
      const arg = () => inline ?? rest[++i];
      let err: string | undefined;
      switch (name) {
        case '--create':
          err = setMode('create');
          break;
        case '--extract':
        case '--get':
          err = setMode('extract');
          break;
        case '--list':
          err = setMode('list');
          break;
        case '--file':
        case '--directory': {
          const v = arg();
          if (v === undefined) return { ok: false, stderr: `tar: option '${name}' requires an argument\n${TRY}` };
          if (name === '--file') o.file = v;
          else o.directory = v;
          break;
        }
        case '--verbose':
          o.verbose = true;
          break;
        case '--touch':
          o.touch = true;
          break;
        case '--no-same-permissions':
          o.noSamePermissions = true;
          break;
        case '--absolute-names':
          o.absoluteNames = true;
          break;
        case '--gzip':
        case '--gunzip':
        case '--ungzip':
          o.gzip = true;
          break;
        default:
          if (!IGNORED_LONG.has(name)) return { ok: false, stderr: `tar: unrecognized option '${a}'\n${TRY}` };
      }
      if (err) return { ok: false, stderr: err };
      continue;
    }
    // A short cluster: an option that takes an argument takes the rest of the word, or the next word.
    const letters = a.slice(1);
    for (let j = 0; j < letters.length; j++) {
      const letter = letters[j]!;
      const value = () => {
        const tail = letters.slice(j + 1);
        j = letters.length;
        return tail !== '' ? tail : rest[++i];
      };
      const err = short(letter, WITH_ARG.has(letter) ? value : () => undefined);
      if (err) return { ok: false, stderr: err };
    }
  }
  if (!mode) return { ok: false, stderr: `tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\n${TRY}` };
  o.mode = mode;
  if (mode === 'create' && o.operands.length === 0) return { ok: false, stderr: `tar: Cowardly refusing to create an empty archive\n${TRY}` };
  return { ok: true, options: o };
}

/**
 * A member name as GNU tar stores (and extracts) it: leading `/` removed, as
 * are leading `../` parts; `stripped` says what was removed, for the notice
 * ("Removing leading `/' from member names"). With -P the name stays.
 */
export function memberName(path: string, absoluteNames = false): { name: string; stripped?: string } {
  if (absoluteNames) return { name: path };
  let name = path;
  let stripped = '';
  for (;;) {
    const m = /^(\/+|\.\.(\/+|$))/.exec(name);
    if (!m) break;
    stripped += m[0];
    name = name.slice(m[0].length);
  }
  if (!stripped) return { name };
  // GNU names the prefix it removed, with one slash per part: `/`, `../`, `/../`.
  return { name: name === '' ? '.' : name, stripped: stripped.replace(/\/+/g, '/') };
}

/** Whether a member name climbs out of the extraction directory (GNU refuses it: "Member name contains '..'"). */
export function climbsOut(name: string): boolean {
  return name.split('/').includes('..');
}

export interface TarResult {
  /** The archive, when it goes to stdout; listings otherwise. */
  stdout: Buffer | string;
  stderr: string;
  exitCode: number;
}

const enoent = (e: unknown) => /ENOENT|no such file/i.test((e as Error).message);

/** Runs tar with parsed options in `cwd`; `stdin` is the archive for -x/-t with `-f -`. */
export async function runTar(fs: TarFs, cwd: string, o: TarOptions, stdin: Uint8Array, now: () => Date = () => new Date()): Promise<TarResult> {
  // tar-stream (and its streams) load with the first tar run, not with every container's shell.
  const { extract, pack } = await import('tar-stream');
  let stderr = '';
  let failed = false;
  const base = o.directory ? posix.resolve(cwd, o.directory) : cwd;
  if (o.directory) {
    const st = await fs.stat(base).catch(() => undefined);
    if (!st?.isDirectory)
      return { stdout: '', stderr: `tar: ${o.directory}: Cannot open: ${st ? 'Not a directory' : 'No such file or directory'}\ntar: Error is not recoverable: exiting now\n`, exitCode: 2 };
  }
  const notices = new Set<string>();
  const notice = (stripped: string | undefined) => {
    if (stripped && !notices.has(stripped)) {
      notices.add(stripped);
      stderr += `tar: Removing leading \`${stripped}' from member names\n`;
    }
  };
  const end = (stdout: Buffer | string): TarResult => ({ stdout, stderr: failed ? `${stderr}tar: Exiting with failure status due to previous errors\n` : stderr, exitCode: failed ? 2 : 0 });
  let listing = '';
  const list = (name: string) => {
    if (o.verbose || o.mode === 'list') listing += `${name}\n`;
  };

  if (o.mode === 'create') {
    const p = pack();
    const chunks: Buffer[] = [];
    const collected = (async () => {
      for await (const c of p) chunks.push(c as Buffer);
    })();
    const add = (h: Headers, body?: Buffer) =>
      new Promise<void>((resolve, reject) => {
        p.entry({ uid: 0, gid: 0, uname: 'root', gname: 'root', ...h }, body ?? Buffer.alloc(0), (err) => (err ? reject(err) : resolve()));
      });
    const walk = async (abs: string, name: string): Promise<void> => {
      const st = await fs.lstat(abs);
      const mode = st.mode & 0o7777;
      if (st.isSymbolicLink) {
        await add({ name, type: 'symlink', linkname: await fs.readlink(abs), mode, mtime: st.mtime });
      } else if (st.isDirectory) {
        await add({ name: name.endsWith('/') ? name : `${name}/`, type: 'directory', mode, mtime: st.mtime });
        list(name.endsWith('/') ? name : `${name}/`);
        for (const child of (await fs.readdir(abs)).sort()) await walk(posix.join(abs, child), posix.join(name, child));
        return;
      } else {
        await add({ name, type: 'file', mode, mtime: st.mtime }, Buffer.from(await fs.readFileBuffer(abs)));
      }
      list(name);
    };
    for (const operand of o.operands) {
      const abs = posix.resolve(base, operand);
      const st = await fs.lstat(abs).catch((e: unknown) => (enoent(e) ? undefined : Promise.reject(e)));
      if (!st) {
        stderr += `tar: ${operand}: Cannot stat: No such file or directory\n`;
        failed = true;
        continue;
      }
      const { name, stripped } = memberName(posix.normalize(operand).replace(/(.)\/$/, '$1'), o.absoluteNames);
      notice(stripped);
      await walk(abs, name);
    }
    p.finalize();
    await collected;
    let archive = Buffer.concat(chunks);
    // GNU tar writes whole records: the end-of-archive blocks are followed by zeros up to the record size.
    const padded = Math.ceil(archive.length / RECORD_BYTES) * RECORD_BYTES;
    if (padded > archive.length) archive = Buffer.concat([archive, Buffer.alloc(padded - archive.length)]);
    if (o.gzip) archive = gzipSync(archive);
    if (o.file === '-') {
      // A listing cannot share stdout with the archive: GNU writes it to stderr then.
      stderr = stderr + listing;
      return end(archive);
    }
    await fs.writeFile(posix.resolve(base, o.file), archive);
    return end(listing);
  }

  // -x and -t read an archive.
  let archive: Uint8Array;
  if (o.file === '-') archive = stdin;
  else {
    try {
      archive = await fs.readFileBuffer(posix.resolve(cwd, o.file));
    } catch {
      return { stdout: '', stderr: `tar: ${o.file}: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\n`, exitCode: 2 };
    }
  }
  // gzip is recognised by its magic bytes, with or without -z (GNU tar's compression detection on reading).
  const gzipped = archive.length >= 2 && archive[0] === 0x1f && archive[1] === 0x8b;
  if (o.gzip && !gzipped && archive.length > 0) {
    return { stdout: '', stderr: 'gzip: stdin: not in gzip format\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n', exitCode: 2 };
  }
  if (gzipped) {
    try {
      archive = gunzipSync(archive);
    } catch {
      return { stdout: '', stderr: 'gzip: stdin: unexpected end of file\ntar: Child returned status 1\ntar: Error is not recoverable: exiting now\n', exitCode: 2 };
    }
  }
  if (archive.length === 0 || archive.every((b) => b === 0)) {
    if (archive.length === 0) return { stdout: '', stderr: 'tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n', exitCode: 2 };
    return end('');
  }
  const x = extract();
  x.end(Buffer.from(archive));
  try {
    for await (const entry of x) {
      const h = entry.header;
      const chunks: Buffer[] = [];
      for await (const c of entry) chunks.push(c as Buffer);
      const { name, stripped } = memberName(h.name, o.absoluteNames);
      if (o.mode === 'list') {
        list(h.name);
        continue;
      }
      notice(stripped);
      if (!o.absoluteNames && climbsOut(name)) {
        stderr += `tar: ${h.name}: Member name contains '..'\n`;
        failed = true;
        continue;
      }
      list(h.name);
      const dest = posix.resolve(base, name);
      const archived = (h.mode ?? 0o644) & 0o7777;
      const mode = o.noSamePermissions ? archived & ~UMASK : archived;
      const mtime = o.touch ? now() : (h.mtime ?? now());
      await fs.mkdir(posix.dirname(dest), { recursive: true });
      if (h.type === 'directory') {
        await fs.mkdir(dest, { recursive: true });
      } else if (h.type === 'symlink') {
        // GNU unlinks what is there first.
        if (await fs.exists(dest)) await fs.rm(dest, { force: true });
        await fs.symlink(h.linkname ?? '', dest);
        continue;
      } else if (h.type === 'file' || h.type === 'contiguous-file' || h.type === 'link') {
        const body = h.type === 'link' ? Buffer.from(await fs.readFileBuffer(posix.resolve(base, memberName(h.linkname ?? '').name))) : Buffer.concat(chunks);
        await fs.writeFile(dest, body);
      } else {
        // Devices and fifos cannot be made in the simulated filesystem.
        stderr += `tar: ${h.name}: Cannot mknod: Operation not permitted\n`;
        failed = true;
        continue;
      }
      await fs.chmod(dest, mode);
      await fs.utimes(dest, mtime, mtime);
    }
  } catch (e) {
    if (/header|invalid|unexpected end/i.test((e as Error).message)) {
      return { stdout: listing, stderr: `${stderr}tar: This does not look like a tar archive\ntar: Exiting with failure status due to previous errors\n`, exitCode: 2 };
    }
    throw e;
  }
  return end(listing);
}

/** The `tar` command of every container's shell (replacing just-bash's, which keeps the leading `/`). */
export function tarCommand(): Command {
  return defineCommand('tar', async (args, ctx) => {
    const parsed = parseTarArgs(args);
    if (!parsed.ok) return { stdout: '', stderr: parsed.stderr, exitCode: 2 };
    const stdin = Buffer.from(latin1FromBytes(ctx.stdin), 'latin1');
    let r: TarResult;
    try {
      r = await runTar(ctx.fs as unknown as TarFs, ctx.cwd, parsed.options, stdin);
    } catch (e) {
      return { stdout: '', stderr: `tar: ${(e as Error).message}\n`, exitCode: 2 };
    }
    // The archive is bytes: marked so that the pipe and redirections pass it on unchanged.
    if (typeof r.stdout !== 'string') return { stdout: r.stdout.toString('latin1'), stdoutKind: 'bytes', stdoutEncoding: 'binary', stderr: r.stderr, exitCode: r.exitCode };
    return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
  });
}
