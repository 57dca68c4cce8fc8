// The container filesystem: an in-memory rootfs seeded from the image whose
// /proc/PID/fd/{1,2} feed the log (PID 1) or an exec's output.
//
// just-bash writes a `/bin/NAME` and `/usr/bin/NAME` stub for each of its ~90
// commands into every shell's filesystem; doing that per container was most
// of a container start's CPU. Here the stubs live in one shared read-only
// layer (like an image's lower layer under overlayfs): reads of a stub path
// are answered from it, and the first operation that could see the stubs as
// a set or change them (listing /bin, rm, mv, cp, chmod, links, writes under
// /bin or /usr/bin) copies them up into the container's own layer first, so
// from then on everything behaves exactly as a fully written filesystem.
// Writes fail with EROFS while the node's filesystem is read-only (node-faults.ts)
// and where the security context makes them read-only (security/filesystem.ts).

import { posix } from 'node:path';
import { InMemoryFs, unsafeBytesFromLatin1, type FileContent } from 'just-bash';
import type { Stream } from './logs.js';
import { writtenChunk, type Chunk } from './output.js';
import { assertWritable } from './node-faults.js';
import { CHECKPOINT_PATH, HELPER_PREFIX } from './shell.js';
import type { ContainerReader, WriteThrough } from './write-through.js';
import { isProcPath, procDir, procFile, type SystemView } from './procfs.js';
import type { SecurityFs } from './security/filesystem.js';

type Fs = InMemoryFs;
type WriteOptions = Parameters<Fs['writeFileSync']>[2];
type WriteMetadata = Parameters<Fs['writeFileSync']>[3];

/** The text just-bash writes for a registered command (its `registerCommand`). */
export function stubText(name: string): string {
  return `#!/bin/bash\n# Built-in command: ${name}\n`;
}

/** The shared lower layer: one copy of every stub any container registered. */
const lower = new InMemoryFs();
const inLower = new Set<string>();

/** Which stream and process a path names: /proc/PID/fd/1 and /proc/PID/fd/2. */
function fdRoute(path: string): { pid: number; stream: Stream } | undefined {
  const m = /^\/proc\/(\d+)\/fd\/([12])$/.exec(path);
  return m ? { pid: Number(m[1]), stream: m[2] === '1' ? 'stdout' : 'stderr' } : undefined;
}

/** A path as the filesystem keys it ('/bin//ls/' and '/usr/bin/../bin/ls' name /bin/ls); undefined for a relative one. */
function normalize(path: string): string | undefined {
  if (!path.startsWith('/')) return undefined;
  if (!/\/\/|\/\.|.\/$/.test(path)) return path;
  const n = posix.normalize(path);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

/** Whether an operation on `path` can change or enumerate the stubs: /, /usr, /bin, /usr/bin and anything under the two. */
function reachesStubs(path: string): boolean {
  const n = normalize(path);
  return n === undefined || n === '/' || n === '/usr' || n === '/bin' || n === '/usr/bin' || n.startsWith('/bin/') || n.startsWith('/usr/bin/');
}

/** /proc and /sys: where masked paths and sysctls lie. */
const isKernelPath = (path: string) => path.startsWith('/proc') || path.startsWith('/sys');

export class ContainerFs extends InMemoryFs {
  writtenBytes = 0;
  /** Stub paths served by the shared layer; empty once copied up. */
  private readonly stubs = new Set<string>();
  /** Stub writes are collected while the shell registers its commands. */
  private collecting = true;
  private readonly created = new Date();
  private readonly imagePaths: Set<string>;
  /** The kernel's view of the container: /proc and /sys/fs/cgroup files are rendered from it on each read (procfs.ts). */
  procView: SystemView | undefined;
  /** Commands the image has no file for (missing ones, shell builtins; set before the shell registers its commands): their stubs are never written, so /bin leaves them out. */
  hiddenCommands: ReadonlySet<string> = new Set();
  /** The security context's mounts: read-only root and paths, masked paths, /proc/sys (security/filesystem.ts). */
  security: SecurityFs | undefined;

  constructor(
    files: Record<string, string>,
    private readonly sink: (pid: number, stream: Stream, data: Chunk) => void,
    /** Called on each write to a /proc fd file and on opening CHECKPOINT_PATH: may hand the thread back (cpu.ts). */
    private readonly checkpoint: () => Promise<void> | undefined = () => undefined,
    /** Writable host mounts: writes under them reach the host too (write-through.ts). */
    private readonly writeThrough?: WriteThrough,
  ) {
    super(files);
    this.imagePaths = new Set(Object.keys(files));
  }

  /** This filesystem as the write-through reads it (its own layer: mounts never hold stubs). */
  private readonly reader: ContainerReader = {
    isDirectory: async (p) => (await super.stat(p)).isDirectory,
    readBytes: (p) => super.readFileBuffer(p),
    list: (p) => super.readdir(p),
  };

  /** Throws EROFS for a write to `paths` on a filesystem that is read-only: the node's (a fault) or the container's mount. */
  private writable(...paths: string[]): void {
    assertWritable(...paths);
    if (!this.security) return;
    for (const p of paths) {
      const refused = this.security.writeRefusal(normalize(p) ?? p);
      if (refused) throw refused;
    }
  }

  /** The shell has registered its commands: later writes of stub text are ordinary files. */
  sealStubs(): void {
    this.collecting = false;
  }

  /** The stub path `path` stands for while the stubs are shared, else undefined. */
  private stubAt(path: string): string | undefined {
    // Called from InMemoryFs's constructor too, before this class's fields exist.
    if (!this.stubs?.size) return undefined;
    if (this.stubs.has(path)) return path;
    const n = normalize(path);
    return n !== undefined && this.stubs.has(n) ? n : undefined;
  }

  /** Copies the shared stubs into this filesystem (copy-up), once. */
  private copyUp(): void {
    if (!this.stubs?.size) return;
    const paths = [...this.stubs];
    this.stubs.clear();
    for (const p of paths) super.writeFileSync(p, stubText(p.slice(p.lastIndexOf('/') + 1)), undefined, { mtime: this.created });
  }

  private before(...paths: string[]): void {
    if (this.stubs?.size && paths.some(reachesStubs)) this.copyUp();
  }

  // ---- writes ------------------------------------------------------------

  override writeFileSync(path: string, content: FileContent, options?: WriteOptions, metadata?: WriteMetadata): void {
    if (this.collecting && this.collectStub(path, content)) return;
    this.before(path);
    super.writeFileSync(path, content, options, metadata);
  }

  /** Takes a command stub into the shared layer instead of this filesystem; false when it is not one. */
  private collectStub(path: string, content: FileContent): boolean {
    if (typeof content !== 'string' || !(path.startsWith('/bin/') || path.startsWith('/usr/bin/'))) return false;
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (path !== `/bin/${name}` && path !== `/usr/bin/${name}`) return false;
    if (this.hiddenCommands.has(name) && content === stubText(name)) return true;
    // An image's own file at that path is replaced by the stub, as before: write it here.
    if (content !== stubText(name) || this.imagePaths.has(path)) return false;
    if (!inLower.has(path)) {
      lower.writeFileSync(path, content);
      inLower.add(path);
    }
    this.stubs.add(path);
    return true;
  }

  override writeFileLazy(...args: Parameters<Fs['writeFileLazy']>): void {
    this.before(args[0]);
    super.writeFileLazy(...args);
  }

  override async appendFile(path: string, content: FileContent, options?: Parameters<Fs['appendFile']>[2]): Promise<void> {
    if (path === CHECKPOINT_PATH) return this.checkpoint();
    const r = fdRoute(path);
    if (r) {
      // Bytes a command passes through stay bytes; text stays text (see output.ts). Opening the redirection writes nothing.
      if (content.length > 0) this.sink(r.pid, r.stream, writtenChunk(content, options));
      return this.checkpoint();
    }
    this.writable(path);
    this.writtenBytes += content.length;
    this.before(path);
    await super.appendFile(path, content, options);
    await this.writeThrough?.copyOut(path, this.reader);
  }

  override async writeFile(path: string, content: FileContent, options?: Parameters<Fs['writeFile']>[2]): Promise<void> {
    if (path === CHECKPOINT_PATH || fdRoute(path)) return this.appendFile(path, content, options);
    this.writable(path);
    this.writtenBytes += content.length;
    this.before(path);
    await super.writeFile(path, content, options);
    await this.writeThrough?.copyOut(path, this.reader);
  }

  /** The kubelet's refresh of a projected volume's file: a host-side update, which the container's read-only mount does not refuse. */
  async refreshFile(path: string, content: string | undefined): Promise<void> {
    this.before(path);
    if (content === undefined) return super.rm(path, { force: true });
    await super.mkdir(posix.dirname(path), { recursive: true });
    await super.writeFile(path, content);
  }

  override mkdirSync(...args: Parameters<Fs['mkdirSync']>): void {
    this.before(args[0]);
    super.mkdirSync(...args);
  }

  override async mkdir(...args: Parameters<Fs['mkdir']>): Promise<void> {
    this.writable(args[0]);
    this.before(args[0]);
    await super.mkdir(...args);
    await this.writeThrough?.mkdir(args[0]);
  }

  override async rm(...args: Parameters<Fs['rm']>): Promise<void> {
    this.writable(args[0]);
    this.before(args[0]);
    await super.rm(...args);
    await this.writeThrough?.rm(args[0]);
  }

  override async cp(...args: Parameters<Fs['cp']>): Promise<void> {
    this.writable(args[1]);
    this.before(args[0], args[1]);
    await super.cp(...args);
    await this.writeThrough?.copyOut(args[1], this.reader);
  }

  override async mv(...args: Parameters<Fs['mv']>): Promise<void> {
    this.writable(args[0], args[1]);
    this.before(args[0], args[1]);
    await super.mv(...args);
    await this.writeThrough?.rm(args[0]);
    await this.writeThrough?.copyOut(args[1], this.reader);
  }

  override async chmod(...args: Parameters<Fs['chmod']>): Promise<void> {
    this.writable(args[0]);
    this.before(args[0]);
    return super.chmod(...args);
  }

  override async utimes(...args: Parameters<Fs['utimes']>): Promise<void> {
    this.writable(args[0]);
    this.before(args[0]);
    return super.utimes(...args);
  }

  // A link can name a stub by another path: the stubs become real first.
  override async symlink(...args: Parameters<Fs['symlink']>): Promise<void> {
    this.writable(args[1]);
    this.copyUp();
    return super.symlink(...args);
  }

  override async link(...args: Parameters<Fs['link']>): Promise<void> {
    this.writable(args[1]);
    this.copyUp();
    return super.link(...args);
  }

  // ---- listings ----------------------------------------------------------

  // The job-control helpers the shell rewrite calls (shell.ts) need their stubs to resolve, but are the runtime's, not the image's: listings leave them out.
  override async readdir(path: string): Promise<string[]> {
    const k = this.kernelDir(path);
    if (k) return (await this.readdirWithFileTypes(path)).map((e) => e.name);
    this.before(path);
    return (await super.readdir(path)).filter((n) => !n.startsWith(HELPER_PREFIX));
  }

  override async readdirWithFileTypes(...args: Parameters<Fs['readdirWithFileTypes']>): ReturnType<Fs['readdirWithFileTypes']> {
    const k = this.kernelDir(args[0]);
    if (k) {
      // The kernel's entries stand in for the interpreter's own (its /proc/self, /proc/version).
      return k.map(([name, dir]) => ({ name, isFile: !dir, isDirectory: dir, isSymbolicLink: false }));
    }
    this.before(args[0]);
    return (await super.readdirWithFileTypes(...args)).filter((e) => !e.name.startsWith(HELPER_PREFIX));
  }

  override getAllPaths(): string[] {
    this.copyUp();
    return super.getAllPaths();
  }

  // ---- reads: a shared stub answers for itself -----------------------------

  /** The entries of a kernel directory at `path` (merged with what the shell keeps there: /proc/PID/fd), else undefined. */
  private kernelDir(path: string): [string, boolean][] | undefined {
    const own = this.security && isKernelPath(path) ? this.security.dir(normalize(path) ?? path) : undefined;
    if (own) return own;
    return this.procView && isProcPath(path) ? procDir(normalize(path) ?? path, this.procView) : undefined;
  }

  /** The text of a kernel file at `path`, else undefined. */
  private kernelFile(path: string): string | undefined {
    const own = this.security && isKernelPath(path) ? this.security.file(normalize(path) ?? path) : undefined;
    if (own !== undefined) return own;
    return this.procView && isProcPath(path) ? procFile(path, this.procView) : undefined;
  }

  override async exists(path: string): Promise<boolean> {
    // The checkpoint path is no file: a redirection to it goes straight on to the write (asked on every loop pass).
    if (path === CHECKPOINT_PATH) return false;
    if (this.kernelFile(path) !== undefined || this.kernelDir(path)) return true;
    return this.stubAt(path) !== undefined || super.exists(path);
  }

  override async stat(path: string): ReturnType<Fs['stat']> {
    // Kernel files are read-only regular files of size 0, as stat shows them in /proc.
    if (this.kernelFile(path) !== undefined) return { isFile: true, isDirectory: false, isSymbolicLink: false, mode: 0o444, size: 0, mtime: new Date() };
    if (this.kernelDir(path)) return { isFile: false, isDirectory: true, isSymbolicLink: false, mode: 0o555, size: 0, mtime: new Date() };
    const s = this.stubAt(path);
    return s ? { ...(await lower.stat(s)), mtime: this.created } : super.stat(path);
  }

  override async lstat(path: string): ReturnType<Fs['lstat']> {
    const s = this.stubAt(path);
    return s ? { ...(await lower.lstat(s)), mtime: this.created } : super.lstat(path);
  }

  override async readFile(...args: Parameters<Fs['readFile']>): Promise<string> {
    const k = this.kernelFile(args[0]);
    if (k !== undefined) return k;
    const s = this.stubAt(args[0]);
    return s ? lower.readFile(s, args[1]) : super.readFile(...args);
  }

  override async readFileBytes(path: string): ReturnType<Fs['readFileBytes']> {
    const k = this.kernelFile(path);
    // A byte string is a latin1 string; the kernel's files are ASCII.
    if (k !== undefined) return unsafeBytesFromLatin1(k);
    const s = this.stubAt(path);
    return s ? lower.readFileBytes(s) : super.readFileBytes(path);
  }

  override async readFileBuffer(path: string): Promise<Uint8Array> {
    const k = this.kernelFile(path);
    if (k !== undefined) return Buffer.from(k, 'latin1');
    const s = this.stubAt(path);
    // A copy: the shared layer's bytes must not change under another container.
    return s ? new Uint8Array(await lower.readFileBuffer(s)) : super.readFileBuffer(path);
  }

  override async realpath(path: string): Promise<string> {
    const s = this.stubAt(path);
    return s ?? super.realpath(path);
  }

  override async readlink(path: string): Promise<string> {
    // A stub is a regular file: readlink fails on it just as on any other (EINVAL).
    const s = this.stubAt(path);
    return s ? lower.readlink(path) : super.readlink(path);
  }
}
