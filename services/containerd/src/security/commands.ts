// The commands whose outcome depends on the container's credentials: `id`
// and `whoami` (moved here from coreutils.ts), and the operations the kernel
// refuses without a capability (EPERM): chown/chgrp (CAP_CHOWN), mknod
// (CAP_MKNOD), `date -s` (CAP_SYS_TIME), setting the hostname
// (CAP_SYS_ADMIN). busybox's wording in busybox and alpine images, GNU's in
// Debian-based ones. On a read-only root, busybox's `touch` says so its way.

import { Bash, defineCommand, type Command, type CommandContext } from 'just-bash';
import { ok, type Result } from '../programs/util.js';
import { DEFAULT_READONLY_PATHS, hasCapability, seccompDenies, type ContainerSecurity } from './context.js';
import type { CapabilityName } from './capabilities.js';
import type { SecurityFs } from './filesystem.js';
import { idText, parseGroup, parsePasswd, whoamiText, type Userland } from './users.js';

/** busybox and alpine images (and the teaching images built on busybox) have busybox's applets; the rest GNU's. */
export function userlandOf(osRelease: string | undefined): Userland {
  const id = /^ID=(.*)$/m.exec(osRelease ?? '')?.[1]?.replace(/"/g, '');
  return id === 'debian' || id === 'ubuntu' || id === 'ol' ? 'coreutils' : 'busybox';
}

const read = (ctx: CommandContext, path: string) => ctx.fs.readFile(path).catch(() => '');

export function idCommand(security: () => ContainerSecurity, userland: Userland): Command {
  return defineCommand('id', async (args, ctx) => idText(args, security().identity, parsePasswd(await read(ctx, '/etc/passwd')), parseGroup(await read(ctx, '/etc/group')), userland));
}

export function whoamiCommand(security: () => ContainerSecurity, userland: Userland): Command {
  return defineCommand('whoami', async (_args, ctx) => whoamiText(security().identity, parsePasswd(await read(ctx, '/etc/passwd')), userland));
}

const operands = (args: string[]) => args.filter((a) => !a.startsWith('-') || a === '-');

/** `chown OWNER[:GROUP] FILE...` / `chgrp GROUP FILE...`: ownership is not modelled beyond the permission check. */
function chownCommand(name: 'chown' | 'chgrp', security: () => ContainerSecurity, userland: Userland): Command {
  return defineCommand(name, async (args, ctx) => {
    const [owner, ...files] = operands(args);
    if (owner === undefined || files.length === 0) return ok('', 1, userland === 'busybox' ? `${name}: missing operand\n` : `${name}: missing operand\nTry '${name} --help' for more information.\n`);
    const allowed = hasCapability(security(), 'CHOWN');
    let stderr = '';
    for (const f of files) {
      const path = ctx.fs.resolvePath(ctx.cwd, f);
      if (!(await ctx.fs.exists(path))) stderr += userland === 'busybox' ? `${name}: ${f}: No such file or directory\n` : `${name}: cannot access '${f}': No such file or directory\n`;
      else if (!allowed)
        stderr += userland === 'busybox' ? `${name}: ${f}: Operation not permitted\n` : `${name}: changing ${name === 'chown' ? 'ownership' : 'group'} of '${f}': Operation not permitted\n`;
    }
    return ok('', stderr ? 1 : 0, stderr);
  });
}

/** `mknod NAME TYPE [MAJOR MINOR]`: needs CAP_MKNOD; with it, the node is an empty file here. */
function mknodCommand(security: () => ContainerSecurity, fs: SecurityFs): Command {
  return defineCommand('mknod', async (args, ctx) => {
    const [node, type] = operands(args);
    if (node === undefined || type === undefined) return ok('', 1, fs.userland === 'busybox' ? 'mknod: missing operand\n' : "mknod: missing operand\nTry 'mknod --help' for more information.\n");
    const path = ctx.fs.resolvePath(ctx.cwd, node);
    if (!hasCapability(security(), 'MKNOD') && type !== 'p') return ok('', 1, `mknod: ${node}: Operation not permitted\n`);
    if (await ctx.fs.exists(path)) return ok('', 1, `mknod: ${node}: File exists\n`);
    if (fs.writeRefusal(path)) return ok('', 1, `mknod: ${node}: Read-only file system\n`);
    await ctx.fs.writeFile(path, '');
    return ok();
  });
}

/** just-bash's own `date`, for everything but setting the clock (an interpreter of its own: a custom command shadows the built-in). */
let plainShell: Bash | undefined;
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `date`: as before, except `-s`/`--set`, which needs CAP_SYS_TIME (the clock is the node's: it never changes here). */
function dateCommand(security: () => ContainerSecurity, userland: Userland): Command {
  return defineCommand('date', async (args, ctx) => {
    const setting = args.some((a) => a === '-s' || a.startsWith('--set') || /^-[a-zA-Z]*s/.test(a));
    if (setting && !hasCapability(security(), 'SYS_TIME')) {
      return ok('', 1, userland === 'busybox' ? "date: can't set date: Operation not permitted\n" : 'date: cannot set date: Operation not permitted\n');
    }
    plainShell ??= new Bash({ defenseInDepth: false });
    const env: Record<string, string> = {};
    for (const k of ['TZ', 'LC_ALL', 'LANG']) {
      const v = ctx.env.get(k);
      if (v !== undefined) env[k] = v;
    }
    const r = await plainShell.exec(['date', ...args].map(quote).join(' '), { env });
    return ok(r.stdout, r.exitCode, r.stderr);
  });
}

/** busybox `touch FILE...` on a read-only filesystem: `touch: FILE: Read-only file system`. */
function busyboxTouchCommand(fs: SecurityFs): Command {
  return defineCommand('touch', async (args, ctx) => {
    let noCreate = false;
    const files: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '-c') noCreate = true;
      else if (a === '-d' || a === '-t' || a === '-r') i++;
      else if (a.startsWith('-') && a !== '-') continue;
      else files.push(a);
    }
    if (files.length === 0) return ok('', 1, 'touch: missing operand\n');
    let stderr = '';
    const now = new Date();
    for (const f of files) {
      const path = ctx.fs.resolvePath(ctx.cwd, f);
      const refused = fs.writeRefusal(path);
      const exists = await ctx.fs.exists(path);
      if (!exists && noCreate) continue;
      if (refused) {
        stderr += `touch: ${f}: ${refused.message}\n`;
        continue;
      }
      try {
        if (exists) await ctx.fs.utimes(path, now, now);
        else await ctx.fs.writeFile(path, '');
      } catch (err) {
        stderr += `touch: ${f}: ${(err as { code?: string }).code === 'ENOENT' ? 'No such file or directory' : (err as Error).message}\n`;
      }
    }
    return ok('', stderr ? 1 : 0, stderr);
  });
}

/** Whether `hostname ARGS` sets the name (an operand, or -F FILE) rather than printing it. */
export function setsHostname(args: string[]): boolean {
  return args.some((a, i) => a === '-F' || a === '--file' || (!a.startsWith('-') && args[i - 1] !== '-F'));
}

/** What `hostname NAME` prints without CAP_SYS_ADMIN. */
export function hostnameRefusal(userland: Userland): Result {
  return ok('', 1, userland === 'busybox' ? 'hostname: sethostname: Operation not permitted\n' : 'hostname: you must be root to change the host name\n');
}

/** `chmod MODE FILE...` under a seccomp profile that refuses chmod/fchmodat: EPERM for each file. */
function seccompChmodCommand(userland: Userland): Command {
  return defineCommand('chmod', async (args, ctx) => {
    const [mode, ...files] = operands(args);
    if (mode === undefined || files.length === 0) return ok('', 1, userland === 'busybox' ? 'chmod: missing operand\n' : "chmod: missing operand\nTry 'chmod --help' for more information.\n");
    let stderr = '';
    for (const f of files) {
      const path = ctx.fs.resolvePath(ctx.cwd, f);
      if (!(await ctx.fs.exists(path))) stderr += userland === 'busybox' ? `chmod: ${f}: No such file or directory\n` : `chmod: cannot access '${f}': No such file or directory\n`;
      else stderr += userland === 'busybox' ? `chmod: ${f}: Operation not permitted\n` : `chmod: changing permissions of '${f}': Operation not permitted\n`;
    }
    return ok('', 1, stderr);
  });
}

/**
 * A masked executable (maskedPaths: runc binds /dev/null over it): the
 * shell finds it but cannot run it, exit 126. `$0` is the shell's name as
 * the exec gave it (`/bin/sh -c ls`: "/bin/sh: ls: Permission denied").
 */
function maskedExecutables(security: ContainerSecurity, userland: Userland): Command[] {
  const out: Command[] = [];
  for (const path of security.maskedPaths) {
    const m = /^\/(?:usr\/)?(?:local\/)?s?bin\/([^/]+)$/.exec(path);
    if (!m) continue;
    const name = m[1]!;
    out.push(
      defineCommand(name, async (_args, ctx) => {
        const shell = ctx.env.get('0');
        return ok('', 126, userland === 'busybox' ? `${shell ?? 'sh'}: ${name}: Permission denied\n` : `${shell ?? 'bash'}: line 1: ${path}: Permission denied\n`);
      }),
    );
  }
  return out;
}

/** The commands a container's security context shapes, for its shell. */
export function securityCommands(security: () => ContainerSecurity, fs: SecurityFs): Command[] {
  const commands = [
    idCommand(security, fs.userland),
    whoamiCommand(security, fs.userland),
    chownCommand('chown', security, fs.userland),
    chownCommand('chgrp', security, fs.userland),
    mknodCommand(security, fs),
    dateCommand(security, fs.userland),
  ];
  // busybox's touch words a read-only root or read-only path its own way.
  const sc = security();
  if (fs.userland === 'busybox' && (sc.readonlyRootfs || sc.readonlyPaths.some((p) => !DEFAULT_READONLY_PATHS.includes(p)))) commands.push(busyboxTouchCommand(fs));
  if (seccompDenies(security(), 'chmod') || seccompDenies(security(), 'fchmodat')) commands.push(seccompChmodCommand(fs.userland));
  commands.push(...maskedExecutables(security(), fs.userland));
  return commands;
}

export type { CapabilityName };
