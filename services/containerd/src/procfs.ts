// What the kernel shows a container of itself: the process table, the
// cgroup's memory and CPU limits, the mounts and the node's CPUs, memory and
// load. SimProcess provides the view (SystemView); this module renders the
// files a learner reads (/proc/meminfo, /proc/1/status, /sys/fs/cgroup/memory.max)
// and the figures ps, top, free, df and mount print (programs/procps.ts).
// The memory figures are cgroup-aware, as LXCFS presents them: with a limit,
// MemTotal is the limit and the used part the container's accounted usage.

import { readFileSync } from 'node:fs';
import { cpuStatFile, type CfsStat } from './cfs.js';
import { DEFAULT_SECURITY, statusFields, type ContainerSecurity } from './security/context.js';
import { cpus, freemem, loadavg, release, totalmem, uptime, version } from 'node:os';

/** One process of the container's PID namespace. */
export interface ProcEntry {
  pid: number;
  /** 0 for PID 1 and for execs (they enter the namespace from outside). */
  ppid: number;
  argv: string[];
  /** Wall-clock start, ms since the epoch. */
  startedMs: number;
  /** CPU time used, ms. */
  cpuMs: number;
  rssBytes: number;
  /** Its owner as ps prints it: the user's name, or the uid without one (absent: root). */
  user?: string;
  /** The executable's name when the program rewrote its command line (nginx's "nginx: master process ..."): /proc/PID/comm keeps it. */
  comm?: string;
}

export interface MountEntry {
  containerPath: string;
  readonly: boolean;
  /** Projected volumes (service account token, configMap, secret) are tmpfs; others lie on the node's disk. */
  tmpfs: boolean;
}

export interface SystemView {
  /** Live processes of the PID namespace by pid (with a pod-wide namespace, every container's and the pause process). */
  processes(): ProcEntry[];
  /** The pid, in the namespace, of the newest process of this container (/proc/self); absent: the last of processes(). */
  selfPid?(): number;
  /** The pid, in the namespace, of this container's process `pid` (its main process is 1 in a namespace of its own). */
  nsPid?(pid: number): number;
  /** The pid most recently given out (loadavg's last field). */
  lastPid(): number;
  /** The cgroup's memory.max in bytes, 0 for none. */
  readonly memoryLimitBytes: number;
  /** The cgroup's memory.current. */
  memoryBytes(): number;
  /** cpu.max: quota and period in µs (quota 0: max). */
  readonly cpuMax: { quota: number; period: number };
  /** The cgroup's CPU accounting under cpu.max (cpu.stat). */
  cpuStat(): CfsStat;
  readonly mounts: MountEntry[];
  /** Bytes the container wrote to its writable layer. */
  readonly writtenBytes: number;
  /** Ports a process of the container serves, by protocol. */
  listeningPorts(): { tcp: number[]; udp: number[] };
  /** Credentials, capabilities, no_new_privs and seccomp of the container's processes (security/context.ts). */
  readonly security?: ContainerSecurity;
  /** The node's namespaces the sandbox shares (network: the node's sockets; ipc: its System V objects). */
  readonly hostNamespaces?: { network?: boolean; ipc?: boolean };
}

const KiB = 1024;
/** The node disk the overlay's upper dirs and non-tmpfs volumes lie on (statfs figures in 1K blocks). */
export const NODE_DISK = { device: '/dev/sda1', type: 'ext4', totalKiB: 61_255_492, usedKiB: 10_238_716 };
/** Size of the container's /dev and /dev/shm tmpfs (containerd: 64 MiB). */
const DEV_TMPFS_KIB = 65_536;

export interface NodeFacts {
  totalBytes: number;
  freeBytes: number;
  cpus: number;
  cpuModel: string;
  mhz: number;
  load: number[];
  uptimeSec: number;
}

/** The node's CPUs: count, model and clock, read once a minute (os.cpus() reads /proc/cpuinfo and /proc/stat; a shim host renders /proc files for many containers). */
let cpuFacts: { at: number; cpus: number; cpuModel: string; mhz: number } | undefined;
const CPU_FACTS_TTL_MS = 60_000;

/** The node's memory, CPUs and load (memory and load read per call: they change). */
export function nodeFacts(): NodeFacts {
  const now = Date.now();
  if (!cpuFacts || now - cpuFacts.at > CPU_FACTS_TTL_MS) {
    const c = cpus();
    cpuFacts = { at: now, cpus: Math.max(1, c.length), cpuModel: c[0]?.model ?? 'Virtual CPU', mhz: c[0]?.speed ?? 2400 };
  }
  return { totalBytes: totalmem(), freeBytes: freemem(), cpus: cpuFacts.cpus, cpuModel: cpuFacts.cpuModel, mhz: cpuFacts.mhz, load: loadavg(), uptimeSec: uptime() };
}

/** Memory as the container's view shows it: total, used and free in bytes. */
export function memoryView(v: SystemView, n: NodeFacts): { total: number; used: number; free: number } {
  if (v.memoryLimitBytes > 0) {
    const used = Math.min(v.memoryBytes(), v.memoryLimitBytes);
    return { total: v.memoryLimitBytes, used, free: v.memoryLimitBytes - used };
  }
  return { total: n.totalBytes, used: n.totalBytes - n.freeBytes, free: n.freeBytes };
}

/** The command line as ps shows it: `sh -c 'CMD'` with one simple command shows CMD (the shell exec'd it). */
export function commandLine(argv: string[]): string[] {
  if ((argv[0] === 'sh' || argv[0] === '/bin/sh' || argv[0] === 'bash' || argv[0] === '/bin/bash') && argv[1] === '-c' && argv.length === 3) {
    const s = argv[2]!.trim();
    if (s && !/[;&|()<>\n`$"'\\]/.test(s) && !/^(for|while|until|if|case)\b/.test(s)) return s.split(/\s+/);
  }
  return argv;
}

/** The name /proc/PID/comm shows of a process table entry. */
export function procComm(p: Pick<ProcEntry, 'argv' | 'comm'>): string {
  return p.comm ?? commName(p.argv);
}

/** A process's name (/proc/PID/comm): its program's file name, 15 bytes at most. */
export function commName(argv: string[]): string {
  const a0 = commandLine(argv)[0] ?? '';
  return a0.slice(a0.lastIndexOf('/') + 1).slice(0, 15);
}

const kb = (bytes: number) => `${String(Math.round(bytes / KiB)).padStart(8)} kB`;

function meminfo(v: SystemView, n: NodeFacts): string {
  const m = memoryView(v, n);
  const lines: [string, number][] = [
    ['MemTotal', m.total],
    ['MemFree', m.free],
    ['MemAvailable', m.free],
    ['Buffers', 0],
    ['Cached', 0],
    ['SwapCached', 0],
    ['Active', m.used],
    ['Inactive', 0],
    ['SwapTotal', 0],
    ['SwapFree', 0],
    ['Shmem', 0],
  ];
  return lines.map(([k, b]) => `${`${k}:`.padEnd(15)} ${kb(b)}\n`).join('');
}

function cpuinfo(n: NodeFacts): string {
  let out = '';
  for (let i = 0; i < n.cpus; i++) {
    out +=
      `processor\t: ${i}\nvendor_id\t: GenuineIntel\nmodel name\t: ${n.cpuModel}\ncpu MHz\t\t: ${n.mhz.toFixed(3)}\n` +
      `physical id\t: 0\nsiblings\t: ${n.cpus}\ncore id\t\t: ${i}\ncpu cores\t: ${n.cpus}\nflags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx lm\n\n`;
  }
  return out;
}

/** /proc/loadavg: the three loads, running/total tasks and the last pid. */
function loadavgFile(v: SystemView, n: NodeFacts): string {
  const ps = v.processes();
  return `${n.load.map((l) => l.toFixed(2)).join(' ')} 1/${ps.length} ${v.lastPid()}\n`;
}

function status(p: ProcEntry, security: ContainerSecurity): string {
  const sec = statusFields(security);
  const rss = Math.round(p.rssBytes / KiB);
  const lines: [string, string][] = [
    ['Name', procComm(p)],
    ['Umask', '0022'],
    ['State', 'S (sleeping)'],
    ['Tgid', String(p.pid)],
    ['Ngid', '0'],
    ['Pid', String(p.pid)],
    ['PPid', String(p.ppid)],
    ['TracerPid', '0'],
    ...sec.ids,
    ['NSpid', String(p.pid)],
    [
      'VmPeak',
      kb(rss * KiB + 1024 * KiB)
        .trimStart()
        .padStart(11),
    ],
    [
      'VmSize',
      kb(rss * KiB + 1024 * KiB)
        .trimStart()
        .padStart(11),
    ],
    [
      'VmHWM',
      kb(rss * KiB)
        .trimStart()
        .padStart(11),
    ],
    [
      'VmRSS',
      kb(rss * KiB)
        .trimStart()
        .padStart(11),
    ],
    ['Threads', '1'],
    ['SigPnd', '0000000000000000'],
    ['ShdPnd', '0000000000000000'],
    ['SigBlk', '0000000000000000'],
    ['SigIgn', '0000000000000000'],
    ['SigCgt', '0000000000000000'],
    ...sec.caps,
  ];
  return lines.map(([k, val]) => `${k}:\t${val}\n`).join('');
}

/** The container's mount table as /proc/mounts lists it: source, target, type, options. */
export function mountTable(v: SystemView): [string, string, string, string][] {
  const snap = '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots';
  const rows: [string, string, string, string][] = [
    ['overlay', '/', 'overlay', `rw,relatime,lowerdir=${snap}/1/fs,upperdir=${snap}/2/fs,workdir=${snap}/2/work`],
    ['proc', '/proc', 'proc', 'rw,nosuid,nodev,noexec,relatime'],
    ['tmpfs', '/dev', 'tmpfs', `rw,nosuid,size=${DEV_TMPFS_KIB}k,mode=755`],
    ['devpts', '/dev/pts', 'devpts', 'rw,nosuid,noexec,relatime,gid=5,mode=620,ptmxmode=666'],
    ['mqueue', '/dev/mqueue', 'mqueue', 'rw,nosuid,nodev,noexec,relatime'],
    ['sysfs', '/sys', 'sysfs', 'ro,nosuid,nodev,noexec,relatime'],
    ['cgroup', '/sys/fs/cgroup', 'cgroup2', 'ro,nosuid,nodev,noexec,relatime'],
  ];
  const mounted = new Set(v.mounts.map((m) => m.containerPath));
  // containerd adds the sandbox's hostname and resolv.conf; the kubelet mounts /etc/hosts and the termination log.
  for (const p of ['/etc/hosts', '/dev/termination-log', '/etc/hostname', '/etc/resolv.conf']) if (!mounted.has(p)) rows.push([NODE_DISK.device, p, NODE_DISK.type, 'rw,relatime']);
  rows.push(['shm', '/dev/shm', 'tmpfs', `rw,nosuid,nodev,noexec,relatime,size=${DEV_TMPFS_KIB}k`]);
  for (const m of v.mounts) {
    const mode = m.readonly ? 'ro' : 'rw';
    rows.push(m.tmpfs ? ['tmpfs', m.containerPath, 'tmpfs', `${mode},relatime`] : [NODE_DISK.device, m.containerPath, NODE_DISK.type, `${mode},relatime`]);
  }
  return rows;
}

/** The size of a mount's filesystem in 1K blocks: total, used, available; undefined for pseudo filesystems (df leaves them out). */
export function mountUsage(source: string, v: SystemView): [number, number, number] | undefined {
  if (source === 'overlay' || source === NODE_DISK.device) {
    const used = NODE_DISK.usedKiB + (source === 'overlay' ? Math.ceil(v.writtenBytes / KiB) : 0);
    return [NODE_DISK.totalKiB, used, NODE_DISK.totalKiB - used];
  }
  // /dev, /dev/shm and the projected volumes' tmpfs (kubelet sizes those by the node; shown at /dev's 64 MiB).
  if (source === 'shm' || source === 'tmpfs') return [DEV_TMPFS_KIB, 0, DEV_TMPFS_KIB];
  return undefined;
}

let kernelVersion: string | undefined;
/** /proc/version: the node's kernel, which every container shares (read once from the node's own /proc). */
function procVersion(): string {
  if (kernelVersion === undefined) {
    try {
      kernelVersion = readFileSync('/proc/version', 'utf8');
    } catch {
      kernelVersion = `Linux version ${release()} (gcc) ${version()}\n`;
    }
  }
  return kernelVersion;
}

/** Files of /proc itself, of each /proc/PID and of the container's cgroup directory. */
const PROC_FILES = ['cpuinfo', 'loadavg', 'meminfo', 'mounts', 'uptime', 'version'];
const PID_FILES = ['cgroup', 'cmdline', 'comm', 'stat', 'status'];
const CGROUP_FILES = ['cpu.max', 'cpu.stat', 'memory.current', 'memory.max'];

/** The entries of a kernel directory (/proc, /proc/PID, /proc/self, /sys/fs/cgroup) as [name, isDirectory]; undefined for other paths. */
export function procDir(path: string, v: SystemView): [string, boolean][] | undefined {
  if (path === '/proc') return [...v.processes().map((p): [string, boolean] => [String(p.pid), true]), ['self', true], ...PROC_FILES.map((f): [string, boolean] => [f, false])];
  if (path === '/sys/fs/cgroup') return CGROUP_FILES.map((f) => [f, false]);
  const m = /^\/proc\/([^/]+)$/.exec(path);
  if (m && procOf(v, m[1]!)) return [...PID_FILES.map((f): [string, boolean] => [f, false]), ['fd', true]];
  return undefined;
}

/** `/proc/PID` or `/proc/self`: which process a path names. */
function procOf(v: SystemView, seg: string): ProcEntry | undefined {
  const ps = v.processes();
  // The reader is the newest process: an exec's cat, or the shell's current command.
  if (seg === 'self' || seg === 'thread-self') {
    const self = v.selfPid?.();
    return self === undefined ? ps.at(-1) : ps.find((p) => p.pid === self);
  }
  return ps.find((p) => String(p.pid) === seg);
}

/** The text of a /proc or /sys/fs/cgroup file the view answers, else undefined. */
export function procFile(path: string, v: SystemView, n: NodeFacts = nodeFacts()): string | undefined {
  switch (path) {
    case '/proc/meminfo':
      return meminfo(v, n);
    case '/proc/version':
      return procVersion();
    case '/proc/cpuinfo':
      return cpuinfo(n);
    case '/proc/loadavg':
      return loadavgFile(v, n);
    case '/proc/uptime':
      return `${n.uptimeSec.toFixed(2)} ${(n.uptimeSec * n.cpus * 0.9).toFixed(2)}\n`;
    case '/proc/mounts':
    case '/proc/self/mounts':
      return mountTable(v)
        .map((r) => `${r.join(' ')} 0 0\n`)
        .join('');
    case '/sys/fs/cgroup/memory.max':
      return v.memoryLimitBytes > 0 ? `${v.memoryLimitBytes}\n` : 'max\n';
    case '/sys/fs/cgroup/memory.current':
      return `${v.memoryBytes()}\n`;
    case '/sys/fs/cgroup/cpu.max':
      return `${v.cpuMax.quota > 0 ? v.cpuMax.quota : 'max'} ${v.cpuMax.period}\n`;
    case '/sys/fs/cgroup/cpu.stat':
      return cpuStatFile(v.cpuStat());
  }
  const m = /^\/proc\/([^/]+)\/(status|cmdline|comm|cgroup|stat)$/.exec(path);
  if (!m) return undefined;
  const p = procOf(v, m[1]!);
  if (!p) return undefined;
  switch (m[2]) {
    case 'status':
      return status(p, v.security ?? DEFAULT_SECURITY);
    case 'cmdline':
      return commandLine(p.argv)
        .map((a) => `${a}\0`)
        .join('');
    case 'comm':
      return `${procComm(p)}\n`;
    case 'cgroup':
      // cgroup v2 with a private cgroup namespace: the container's cgroup is its root.
      return '0::/\n';
    default:
      return `${p.pid} (${procComm(p)}) S ${p.ppid} ${p.pid} ${p.pid} 0 -1 4194560 0 0 0 0 ${Math.round(p.cpuMs / 10)} 0 0 0 20 0 1 0\n`;
  }
}

/** Whether a path may be a file procFile answers (cheap: asked on every read). */
export function isProcPath(path: string): boolean {
  return path.startsWith('/proc') || path.startsWith('/sys/fs/cgroup');
}
