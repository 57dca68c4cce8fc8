// ps, top, free, df and mount over the container's SystemView (procfs.ts),
// in the layout of the image's userland: busybox 1.36's applets in busybox and
// alpine images, procps-ng 4 / coreutils / util-linux in Debian-based ones.

import { normalize } from 'node:path/posix';
import { defineCommand, type Command, type CommandContext } from 'just-bash';
import type { ProgramProcess } from '../program-process.js';
import { commandLine, procComm, memoryView, mountTable, mountUsage, nodeFacts, NODE_DISK, type ProcEntry } from '../procfs.js';
import { ok, type Result } from './util.js';

type Flavour = 'busybox' | 'procps';

/** busybox and alpine images (and the teaching images built on busybox) have busybox's applets; the rest GNU's and procps'. */
async function flavourOf(proc: ProgramProcess): Promise<Flavour> {
  try {
    const id = /^ID=(.*)$/m.exec(await proc.fs.readFile('/etc/os-release'))?.[1]?.replace(/"/g, '');
    return id === 'debian' || id === 'ubuntu' || id === 'ol' ? 'procps' : 'busybox';
  } catch {
    return 'busybox';
  }
}

const KiB = 1024;
const pad2 = (n: number) => String(n).padStart(2, '0');
const hhmm = (ms: number) => {
  const d = new Date(ms);
  return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
};
/** CPU time as M:SS. */
const mss = (ms: number) => `${Math.floor(ms / 60000)}:${pad2(Math.floor(ms / 1000) % 60)}`;
/** CPU time as HH:MM:SS. */
const hms = (ms: number) => `${pad2(Math.floor(ms / 3600000))}:${pad2(Math.floor(ms / 60000) % 60)}:${pad2(Math.floor(ms / 1000) % 60)}`;
const vszKiB = (p: ProcEntry) => Math.round(p.rssBytes / KiB) + 1024;
const rssKiB = (p: ProcEntry) => Math.round(p.rssBytes / KiB);

/** busybox ps's default columns (pid,user,time,args). */
function busyboxPs(ps: ProcEntry[]): string {
  return `PID   USER     TIME  COMMAND\n${ps.map((p) => `${String(p.pid).padStart(5)} ${(p.user ?? 'root').slice(0, 8).padEnd(8)} ${mss(p.cpuMs).padStart(5)} ${commandLine(p.argv).join(' ')}\n`).join('')}`;
}

/** procps' `ps aux` (BSD user format), `ps -ef` (full format) and plain `ps`. */
function procpsPs(ps: ProcEntry[], style: 'u' | 'f' | 'plain', totalBytes: number, self: number): string {
  const now = Date.now();
  if (style === 'u') {
    const head = `${'USER'.padEnd(8)} ${'PID'.padStart(7)} %CPU %MEM ${'VSZ'.padStart(6)} ${'RSS'.padStart(5)} ${'TTY'.padEnd(8)} STAT START ${'TIME'.padStart(6)} COMMAND\n`;
    return (
      head +
      ps
        .map((p) => {
          const cpu = now > p.startedMs ? (p.cpuMs * 100) / (now - p.startedMs) : 0;
          const mem = (p.rssBytes * 100) / totalBytes;
          const stat = p.pid === self ? 'R' : 'S';
          const lead = p.ppid === 0 ? 's' : '';
          return `${(p.user ?? 'root').slice(0, 8).padEnd(8)} ${String(p.pid).padStart(7)} ${cpu.toFixed(1).padStart(4)} ${mem.toFixed(1).padStart(4)} ${String(vszKiB(p)).padStart(6)} ${String(rssKiB(p)).padStart(5)} ${'?'.padEnd(8)} ${(stat + lead).padEnd(4)} ${hhmm(p.startedMs).padStart(5)} ${mss(p.cpuMs).padStart(6)} ${commandLine(p.argv).join(' ')}\n`;
        })
        .join('')
    );
  }
  if (style === 'f') {
    const head = `${'UID'.padEnd(8)} ${'PID'.padStart(7)} ${'PPID'.padStart(7)}  C STIME ${'TTY'.padEnd(8)} ${'TIME'.padStart(8)} CMD\n`;
    return (
      head +
      ps
        .map(
          (p) =>
            `${(p.user ?? 'root').slice(0, 8).padEnd(8)} ${String(p.pid).padStart(7)} ${String(p.ppid).padStart(7)}  0 ${hhmm(p.startedMs)} ${'?'.padEnd(8)} ${hms(p.cpuMs)} ${commandLine(p.argv).join(' ')}\n`,
        )
        .join('')
    );
  }
  return `${'PID'.padStart(7)} TTY          TIME CMD\n${ps.map((p) => `${String(p.pid).padStart(7)} ${'?'.padEnd(8)} ${hms(p.cpuMs)} ${procComm(p)}\n`).join('')}`;
}

/**
 * `pgrep [-f] [-l] PATTERN`: pids whose name (or, with -f, command line)
 * matches the pattern (an extended regular expression); exit 1 without a
 * match. The pgrep process itself (the newest entry) is never listed.
 */
function pgrepCommand(proc: ProgramProcess): Command {
  return defineCommand('pgrep', async (args) => {
    let full = false;
    let long = false;
    const words: string[] = [];
    for (const a of args) {
      if (/^-[fl]+$/.test(a)) {
        full ||= a.includes('f');
        long ||= a.includes('l');
      } else if (a.startsWith('-') && a !== '-') return ok('', 1, `pgrep: invalid option -- '${a[1] ?? ''}'\n`);
      else words.push(a);
    }
    if (words.length !== 1) return ok('', 2, 'pgrep: no matching criteria specified\n');
    let re: RegExp;
    try {
      re = new RegExp(words[0]!);
    } catch {
      return ok('', 2, `pgrep: bad regex '${words[0]!}'\n`);
    }
    const ps = proc.system.processes().slice(0, -1);
    const hits = ps.filter((p) => re.test(full ? commandLine(p.argv).join(' ') : procComm(p)));
    return hits.length ? ok(hits.map((p) => (long ? `${p.pid} ${procComm(p)}\n` : `${p.pid}\n`)).join('')) : ok('', 1);
  });
}

/** `pidof NAME...`: pids (newest first, one line) of processes named NAME; exit 1 without any. */
function pidofCommand(proc: ProgramProcess): Command {
  return defineCommand('pidof', async (args) => {
    const names = args.filter((a) => !a.startsWith('-'));
    const ps = proc.system.processes().slice(0, -1);
    const pids = ps
      .filter((p) => names.some((n) => procComm(p) === n || p.argv[0] === n || (p.argv[0] ?? '').endsWith(`/${n}`)))
      .map((p) => p.pid)
      .reverse();
    return pids.length ? ok(`${pids.join(' ')}\n`) : ok('', 1);
  });
}

function psCommand(proc: ProgramProcess): Command {
  return defineCommand('ps', async (args) => {
    const flavour = await flavourOf(proc);
    const ps = proc.system.processes();
    const self = ps.at(-1)?.pid ?? 1;
    if (flavour === 'busybox') {
      // busybox accepts and ignores procps' selection options (ps aux, ps -ef); -o and -T are its own.
      const bad = args.map((a) => (/^-/.test(a) ? /[^aefAxlwT]/.exec(a.slice(1))?.[0] : undefined)).find((c) => c !== undefined);
      if (bad)
        return ok(
          '',
          1,
          `ps: invalid option -- '${bad}'\nBusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: ps [-o COL1,COL2=HEADER] [-T]\n\nShow list of processes\n\n\t-o COL1,COL2=HEADER\tSelect columns for display\n\t-T\t\t\tShow threads\n`,
        );
      return ok(busyboxPs(ps));
    }
    const flags = args.join('');
    const style = /^-?[a-zA-Z]*u/.test(flags) && !flags.startsWith('-') ? 'u' : /^-\w*f/i.test(flags) ? 'f' : /u/.test(flags) ? 'u' : 'plain';
    return ok(procpsPs(ps, style, memoryView(proc.system, nodeFacts()).total, self));
  });
}

/** One screen of busybox top: the Mem:, CPU: and Load average: lines and the process table sorted by %CPU. */
export function busyboxTopScreen(proc: ProgramProcess, maxRows: number): string {
  const n = nodeFacts();
  const m = memoryView(proc.system, n);
  const ps = proc.system.processes();
  const now = Date.now();
  const self = ps.at(-1)?.pid ?? 1;
  const pcpu = (p: ProcEntry) => (now > p.startedMs ? Math.round((p.cpuMs * 100) / (now - p.startedMs)) : 0);
  const busy = Math.min(
    100,
    ps.reduce((s, p) => s + pcpu(p), 0),
  );
  const pct = (v: number) => `${String(v).padStart(4)}%`;
  const k = (b: number) => `${Math.round(b / KiB)}K`;
  let out = `Mem: ${k(m.used)} used, ${k(m.free)} free, 0K shrd, 0K buff, 0K cached\n`;
  out += `CPU:${pct(busy)} usr${pct(0)} sys${pct(0)} nic${pct(100 - busy)} idle${pct(0)} io${pct(0)} irq${pct(0)} sirq\n`;
  out += `Load average: ${n.load.map((l) => l.toFixed(2)).join(' ')} 1/${ps.length} ${proc.system.lastPid()}\n`;
  out += '  PID  PPID USER     STAT   VSZ %VSZ CPU %CPU COMMAND\n';
  const rows = [...ps].sort((a, b) => pcpu(b) - pcpu(a) || a.pid - b.pid).slice(0, maxRows);
  for (const p of rows) {
    const vsz = vszKiB(p);
    out += `${String(p.pid).padStart(5)}${String(p.ppid).padStart(6)} ${(p.user ?? 'root').slice(0, 8).padEnd(8)} ${(p.pid === self ? 'R' : 'S').padEnd(3)} ${String(vsz).padStart(5)}${String(Math.round((vsz * KiB * 100) / m.total)).padStart(4)}% ${String(0).padStart(3)}${String(pcpu(p)).padStart(4)}% ${commandLine(p.argv).join(' ')}\n`;
  }
  return out;
}

/** `up 2 days,  3:04` / `up  1:23` / `up 5 min`, as procps' uptime and top print it. */
function upFor(sec: number): string {
  const days = Math.floor(sec / 86400);
  const h = Math.floor(sec / 3600) % 24;
  const m = Math.floor(sec / 60) % 60;
  const d = days ? `${days} day${days === 1 ? '' : 's'}, ` : '';
  return `up ${d}${h ? `${String(h).padStart(2)}:${pad2(m)}` : `${m} min`}`;
}

/** One screen of procps-ng's top (Debian images): the summary area and the task table sorted by %CPU. */
export function procpsTopScreen(proc: ProgramProcess): string {
  const n = nodeFacts();
  const m = memoryView(proc.system, n);
  const ps = proc.system.processes();
  const now = Date.now();
  const self = ps.at(-1)?.pid ?? 1;
  const pcpu = (p: ProcEntry) => (now > p.startedMs ? (p.cpuMs * 100) / (now - p.startedMs) : 0);
  const busy = Math.min(100, ps.reduce((s, p) => s + pcpu(p), 0) / n.cpus);
  const d = new Date(now);
  const f1 = (v: number, w: number) => v.toFixed(1).padStart(w);
  const mib = (b: number) => f1(b / KiB / KiB, 8);
  let out = `top - ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())} ${upFor(n.uptimeSec)},  0 users,  load average: ${n.load.map((l) => l.toFixed(2)).join(', ')}\n`;
  out += `Tasks:${String(ps.length).padStart(4)} total,${String(1).padStart(4)} running,${String(ps.length - 1).padStart(4)} sleeping,   0 stopped,   0 zombie\n`;
  out += `%Cpu(s):${f1(busy, 5)} us,  0.0 sy,  0.0 ni,${f1(100 - busy, 5)} id,  0.0 wa,  0.0 hi,  0.0 si,  0.0 st \n`;
  out += `MiB Mem :${mib(m.total)} total,${mib(m.free)} free,${mib(m.used)} used,${mib(0)} buff/cache\n`;
  out += `MiB Swap:${mib(0)} total,${mib(0)} free,${mib(0)} used.${mib(m.free)} avail Mem \n\n`;
  out += '    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n';
  const timePlus = (ms: number) => `${Math.floor(ms / 60000)}:${pad2(Math.floor(ms / 1000) % 60)}.${pad2(Math.floor(ms / 10) % 100)}`;
  for (const p of [...ps].sort((a, b) => pcpu(b) - pcpu(a) || a.pid - b.pid)) {
    const rss = rssKiB(p);
    out += `${String(p.pid).padStart(7)} ${(p.user ?? 'root').slice(0, 8).padEnd(8)} ${'20'.padStart(3)} ${'0'.padStart(3)} ${String(vszKiB(p)).padStart(7)} ${String(rss).padStart(6)} ${String(Math.round(rss * 0.8)).padStart(6)} ${p.pid === self ? 'R' : 'S'} ${f1(pcpu(p), 5)} ${f1((p.rssBytes * 100) / m.total, 5)} ${timePlus(p.cpuMs).padStart(9)} ${procComm(p)}\n`;
  }
  return out;
}

/** busybox top's refresh interval (-d), seconds. */
const TOP_DELAY_S = 5;
/** Rows of a screen without a terminal: busybox falls back to 24 lines, 4 of them the header. */
const TOP_ROWS = 20;

/**
 * `top [-b] [-n COUNT] [-d SECONDS]`: a screen every interval until COUNT
 * screens or until killed (critest's default container command). Without
 * -b each screen starts with the terminal's clear sequence, as busybox prints it.
 */
function topCommand(proc: ProgramProcess): Command {
  return defineCommand('top', async (args, ctx: CommandContext) => {
    let batch = false;
    let count = Infinity;
    let delay = TOP_DELAY_S;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const take = (flag: string) => (a === flag ? args[++i] : a.slice(flag.length));
      if (a === '-b') batch = true;
      else if (a.startsWith('-n')) count = Number(take('-n'));
      else if (a.startsWith('-d')) delay = Number(take('-d'));
      else if (/^-b?n\d*$/.test(a)) batch = true;
      else return ok('', 1, `top: invalid option -- '${a.replace(/^-/, '')[0] ?? ''}'\n`);
      if (!Number.isFinite(count) && a.startsWith('-n')) return ok('', 1, `top: invalid number '${args[i] ?? ''}'\n`);
    }
    if (!(delay >= 0)) delay = TOP_DELAY_S;
    // procps' top refreshes every 3 s.
    const procps = (await flavourOf(proc)) === 'procps';
    if (procps && !args.some((a) => a.startsWith('-d'))) delay = 3;
    // top's own pid: the newest process (an exec, or PID 1); screens after the first stream to its output.
    const self = proc.system.processes().at(-1)?.pid ?? 1;
    let out = '';
    // busybox top installs a TERM handler (it restores the terminal, then exits 128+15): as PID 1 it stops on TERM.
    let termed = false;
    let onTerm = () => {};
    const termed$ = new Promise<void>((resolve) => (onTerm = resolve));
    const off = proc.onTerm(() => {
      termed = true;
      onTerm();
    });
    try {
      for (let shown = 0; shown < count; shown++) {
        if (shown > 0) {
          await Promise.race([proc.sleep(delay * 1000), termed$]);
          if (termed) return ok(out, 143);
          if (proc.exit || ctx.signal?.aborted) break;
        }
        const screen = procps ? `${shown > 0 ? '\n' : ''}${procpsTopScreen(proc)}` : (batch ? '' : '\x1b[H\x1b[J') + busyboxTopScreen(proc, batch ? Infinity : TOP_ROWS);
        // One screen is top's output (it may be piped); more stream as they come (PID 1's to the log: critest's container).
        if (count === 1) out += screen;
        else proc.writeTo(self, 'stdout', screen);
      }
    } finally {
      off();
    }
    return ok(out);
  });
}

/** free's table: busybox's label is 7 wide, procps-ng 4's 8; columns 12. */
function freeCommand(proc: ProgramProcess): Command {
  return defineCommand('free', async (args) => {
    const flavour = await flavourOf(proc);
    let unit = KiB;
    for (const a of args) {
      for (const c of a.replace(/^--?/, '')) {
        if (c === 'b') unit = 1;
        else if (c === 'k') unit = KiB;
        else if (c === 'm') unit = KiB * KiB;
        else if (c === 'g') unit = KiB * KiB * KiB;
        else
          return ok(
            '',
            1,
            flavour === 'busybox'
              ? `free: invalid option -- '${c}'\nBusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: free [-bkmgh]\n\nDisplay free and used memory\n`
              : `free: invalid option -- '${c}'\n`,
          );
      }
    }
    const m = memoryView(proc.system, nodeFacts());
    const w = flavour === 'busybox' ? 7 : 8;
    const col = (v: number | string) => String(typeof v === 'number' ? Math.floor(v / unit) : v).padStart(12);
    const head = `${''.padEnd(w)}${['total', 'used', 'free', 'shared', 'buff/cache', 'available'].map(col).join('')}\n`;
    return ok(`${head}${'Mem:'.padEnd(w)}${[m.total, m.used, m.free, 0, 0, m.free].map(col).join('')}\n${'Swap:'.padEnd(w)}${[0, 0, 0].map(col).join('')}\n`);
  });
}

/** A size as df -h prints it: busybox one decimal ("58.4G"), coreutils one decimal below 10 ("3.8G", "64M"). */
function human(kib: number, flavour: Flavour): string {
  if (kib === 0) return '0';
  const units = ['K', 'M', 'G', 'T'];
  let v = kib;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (flavour === 'busybox') return `${v.toFixed(1)}${units[i]}`;
  return `${v < 10 ? (Math.ceil(v * 10) / 10).toFixed(1) : Math.ceil(v)}${units[i]}`;
}

/** The mount a path lies on: the one whose target is its longest leading directory (as statfs on the path finds it). */
function mountOf<T extends [string, string, ...string[]]>(table: T[], path: string): T | undefined {
  const under = (target: string) => target === '/' || path === target || path.startsWith(`${target}/`);
  return table.filter((m) => under(m[1])).sort((a, b) => b[1].length - a[1].length)[0];
}

function dfCommand(proc: ProgramProcess): Command {
  return defineCommand('df', async (args, ctx) => {
    const flavour = await flavourOf(proc);
    const h = args.some((a) => /^-\w*h/.test(a));
    const rows: string[][] = [];
    const row = (source: string, target: string, u: [number, number, number] | undefined) => {
      // A pseudo filesystem named by a path operand shows zeros (coreutils: no Use%).
      const [total, used, avail] = u ?? [0, 0, 0];
      const pcent = total === 0 ? (flavour === 'procps' ? '-' : '0%') : `${Math.ceil((used * 100) / (used + avail))}%`;
      rows.push([source, ...[total, used, avail].map((v) => (h ? human(v, flavour) : String(v))), pcent, target]);
    };
    const table = mountTable(proc.system);
    // `df PATH...`: the filesystem each path lies on, one line per operand.
    const paths = args.filter((a) => !a.startsWith('-') || a === '-');
    let status = 0;
    let stderr = '';
    for (const p of paths) {
      const abs = normalize(p.startsWith('/') ? p : `${ctx.cwd}/${p}`);
      // A mount point exists even where the image has no directory for it (/dev/shm).
      const m = table.some((r) => r[1] === abs) || (await proc.fs.exists(abs)) ? mountOf(table, abs) : undefined;
      if (!m) {
        stderr += `df: ${p}: No such file or directory\n`;
        status = 1;
        continue;
      }
      row(m[0], m[1], mountUsage(m[0], proc.system));
    }
    const seen = new Set<string>();
    for (const [source, target] of paths.length ? [] : table) {
      const u = mountUsage(source, proc.system);
      if (!u) continue;
      // coreutils lists a device once (its first mount); busybox every mount.
      if (flavour === 'procps' && source === NODE_DISK.device) {
        if (seen.has(source)) continue;
        seen.add(source);
      }
      row(source, target, u);
    }
    if (paths.length && !rows.length) return ok('', status, stderr);
    if (flavour === 'busybox') {
      const head = h ? ['Filesystem', 'Size', 'Used', 'Available', 'Use%', 'Mounted on'] : ['Filesystem', '1K-blocks', 'Used', 'Available', 'Use%', 'Mounted on'];
      const line = (r: string[]) => `${r[0]!.padEnd(20)} ${r[1]!.padStart(9)} ${r[2]!.padStart(9)} ${r[3]!.padStart(9)} ${r[4]!.padStart(4)} ${r[5]}\n`;
      return ok([head, ...rows].map(line).join(''), status, stderr);
    }
    const head = h ? ['Filesystem', 'Size', 'Used', 'Avail', 'Use%', 'Mounted on'] : ['Filesystem', '1K-blocks', 'Used', 'Available', 'Use%', 'Mounted on'];
    const all = [head, ...rows];
    const width = (i: number, min: number) => Math.max(min, ...all.map((r) => r[i]!.length));
    const w = [width(0, 14), width(1, 5), width(2, 5), width(3, 5), width(4, 4)];
    return ok(all.map((r) => `${r[0]!.padEnd(w[0]!)} ${r[1]!.padStart(w[1]!)} ${r[2]!.padStart(w[2]!)} ${r[3]!.padStart(w[3]!)} ${r[4]!.padStart(w[4]!)} ${r[5]}\n`).join(''), status, stderr);
  });
}

/** `mount` without arguments lists the mount table; mounting needs CAP_SYS_ADMIN, which containerd's default set lacks. */
function mountCommand(proc: ProgramProcess): Command {
  return defineCommand('mount', async (args): Promise<Result> => {
    if (args.filter((a) => !a.startsWith('-')).length > 0) return ok('', 32, `mount: permission denied (are you root?)\n`);
    return ok(
      mountTable(proc.system)
        .map(([s, t, type, o]) => `${s} on ${t} type ${type} (${o})\n`)
        .join(''),
    );
  });
}

export const ps = psCommand;
export const top = topCommand;
export const free = freeCommand;
export const df = dfCommand;
export const mount = mountCommand;
export const pgrep = pgrepCommand;
export const pidof = pidofCommand;
