// The filesystem side of a container's security context, as runc sets up the
// mounts: a read-only root (readonlyRootfs: every write outside the writable
// mounts fails with EROFS), read-only mounts, runc's read-only paths (/proc/sys
// and friends, bind-mounted read-only) and masked paths (a file is /dev/null
// bound over it, a directory an empty read-only tmpfs), and /proc/sys's
// files from the pod's sysctls (namespaced sysctls are set in the pod's
// namespaces before its containers start).

import type { ContainerSecurity } from './context.js';
import type { Userland } from './users.js';

const MARKER = Symbol.for('kubelab.containerd.SecurityReadOnlyError');

/**
 * A write refused by a read-only mount of the container (EROFS). `shellText`
 * is what the image's shell prints when a redirection hits it.
 */
export class SecurityReadOnlyError extends Error {
  readonly code = 'EROFS';
  readonly [MARKER] = true;
  constructor(
    readonly path: string,
    readonly userland: Userland,
  ) {
    super('Read-only file system');
    this.name = 'SecurityReadOnlyError';
  }
  /** busybox ash: `sh: can't create /x: Read-only file system`; dash (Debian's sh): `sh: 1: cannot create /x: Read-only file system`. */
  get shellText(): string {
    return this.userland === 'busybox' ? `sh: can't create ${this.path}: ${this.message}` : `sh: 1: cannot create ${this.path}: ${this.message}`;
  }
  static isInstance(e: unknown): e is SecurityReadOnlyError {
    return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[MARKER] === true;
  }
}

/** Masked paths that are directories (an empty tmpfs hides them); the rest are files (/dev/null over them). */
const MASKED_DIRS = new Set(['/proc/acpi', '/proc/asound', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap']);

/** Namespaced sysctls a pod may set, with the values a fresh namespace starts with (Linux 6.x defaults). */
export const SYSCTL_DEFAULTS: Record<string, string> = {
  'kernel.shm_rmid_forced': '0',
  'kernel.shmmax': '18446744073692774399',
  'kernel.shmmni': '4096',
  'kernel.msgmax': '8192',
  'kernel.sem': '32000\t1024000000\t500\t32000',
  'net.core.somaxconn': '4096',
  'net.ipv4.ip_forward': '1',
  'net.ipv4.ip_local_port_range': '32768\t60999',
  'net.ipv4.ip_unprivileged_port_start': '1024',
  'net.ipv4.ping_group_range': '1\t0',
  'net.ipv4.tcp_syncookies': '1',
  'net.ipv4.tcp_keepalive_time': '7200',
  'net.ipv4.tcp_fin_timeout': '60',
};

const under = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

export interface MountView {
  containerPath: string;
  readonly: boolean;
}

/** Files the runtime and the kubelet bind into every container (writable mounts even on a read-only root). */
const RUNTIME_MOUNTS = ['/etc/hosts', '/etc/hostname', '/etc/resolv.conf', '/dev/termination-log'];

/** The sysctl a /proc/sys path names (`/proc/sys/net/core/somaxconn` → net.core.somaxconn). */
function sysctlKey(path: string): string | undefined {
  return path.startsWith('/proc/sys/') ? path.slice('/proc/sys/'.length).replace(/\//g, '.') : undefined;
}

export class SecurityFs {
  private readonly sysctls: Record<string, string>;

  constructor(
    readonly security: ContainerSecurity,
    private readonly mounts: MountView[],
    readonly userland: Userland,
  ) {
    this.sysctls = { ...SYSCTL_DEFAULTS, ...security.sysctls };
  }

  /** EROFS for a write to `path`, else undefined. */
  writeRefusal(path: string): SecurityReadOnlyError | undefined {
    if (this.security.readonlyPaths.some((p) => under(path, p)) || this.maskedUnder(path) !== undefined) return new SecurityReadOnlyError(path, this.userland);
    // The innermost mount holding the path decides; the root filesystem when there is none.
    const mount = this.mounts.filter((m) => under(path, m.containerPath)).sort((a, b) => b.containerPath.length - a.containerPath.length)[0];
    if (mount) return mount.readonly ? new SecurityReadOnlyError(path, this.userland) : undefined;
    if (!this.security.readonlyRootfs) return undefined;
    // /dev (with /dev/shm), /proc and the bound runtime files are mounts of their own.
    if (path.startsWith('/dev/') || path.startsWith('/proc/') || RUNTIME_MOUNTS.includes(path)) return undefined;
    return new SecurityReadOnlyError(path, this.userland);
  }

  /** The masked path `path` lies in, if any. */
  private maskedUnder(path: string): string | undefined {
    return this.security.maskedPaths.find((p) => under(path, p));
  }

  /** The text of a masked file or a /proc/sys file, else undefined (then the path is not the security context's). */
  file(path: string): string | undefined {
    const m = this.maskedUnder(path);
    if (m !== undefined) return m === path && !MASKED_DIRS.has(m) ? '' : undefined;
    const key = sysctlKey(path);
    if (key !== undefined && key in this.sysctls) return `${this.sysctls[key]}\n`;
    return undefined;
  }

  /** The entries of a masked directory (none) or a /proc/sys directory, as [name, isDirectory]; undefined for other paths. */
  dir(path: string): [string, boolean][] | undefined {
    const m = this.maskedUnder(path);
    if (m !== undefined) return m === path && MASKED_DIRS.has(m) ? [] : undefined;
    if (path !== '/proc/sys' && !path.startsWith('/proc/sys/')) return undefined;
    const prefix = path === '/proc/sys' ? '' : `${sysctlKey(path)}.`;
    const entries = new Map<string, boolean>();
    for (const key of Object.keys(this.sysctls)) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length).split('.');
      entries.set(rest[0]!, rest.length > 1 || entries.get(rest[0]!) === true);
    }
    return entries.size ? [...entries].sort((a, b) => a[0].localeCompare(b[0])) : undefined;
  }
}
