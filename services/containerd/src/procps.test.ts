import { cpus, release, totalmem } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startProcess, type StartedProcess } from './testing/process.js';

let s: StartedProcess | undefined;
afterEach(() => s?.p.kill());

const APPLETS = ['ps', 'top', 'free', 'df', 'mount'];
const BUSYBOX = { '/etc/os-release': 'NAME="BusyBox"\nID=busybox\n' };
const DEBIAN = { '/etc/os-release': 'NAME="Debian GNU/Linux"\nID=debian\n' };
const exec = async (cmd: string[]) => (await s!.p.execSync(cmd, 5000)).stdout;

describe('ps in a busybox container', () => {
  it('lists PID 1 as the entrypoint, a background job and itself in busybox columns', async () => {
    s = startProcess(['sh', '-c', 'sleep 300 & sleep 3600'], { programs: APPLETS, files: BUSYBOX });
    await new Promise((r) => setTimeout(r, 50));
    expect(await exec(['ps'])).toBe('PID   USER     TIME  COMMAND\n    1 root      0:00 sh -c sleep 300 & sleep 3600\n    2 root      0:00 sleep 300\n    3 root      0:00 ps\n');
  });

  it('shows `sh -c CMD` with one simple command as CMD (the shell execs it), and ignores procps options', async () => {
    s = startProcess(['sh', '-c', 'sleep 3600'], { programs: APPLETS, files: BUSYBOX });
    expect(await exec(['ps', 'aux'])).toBe('PID   USER     TIME  COMMAND\n    1 root      0:00 sleep 3600\n    2 root      0:00 ps aux\n');
    expect(await s.p.execSync(['ps', '-Z'], 5000)).toMatchObject({
      exitCode: 1,
      stderr: expect.stringMatching(/^ps: invalid option -- 'Z'\nBusyBox v1\.36\.1 .*\n\nUsage: ps \[-o COL1,COL2=HEADER\] \[-T\]\n/),
    });
  });
});

describe('ps in a Debian container (procps-ng)', () => {
  it('ps -ef, ps aux and plain ps', async () => {
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: DEBIAN });
    const ef = (await exec(['ps', '-ef'])).split('\n');
    expect(ef[0]).toBe('UID          PID    PPID  C STIME TTY          TIME CMD');
    expect(ef[1]).toMatch(/^root {11}1 {7}0 {2}0 \d\d:\d\d \? {8}00:00:00 sleep 3600$/);
    expect(ef[2]).toMatch(/^root {11}2 {7}0 {2}0 \d\d:\d\d \? {8}00:00:00 ps -ef$/);
    const aux = (await exec(['ps', 'aux'])).split('\n');
    expect(aux[0]).toBe('USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND');
    expect(aux[1]).toMatch(/^root {11}1 +\d+\.\d +\d+\.\d +\d+ +\d+ \? {8}Ss {3}\d\d:\d\d {3}0:00 sleep 3600$/);
    expect(aux[2]).toMatch(/ Rs .* ps aux$/);
    expect(await exec(['ps'])).toBe('    PID TTY          TIME CMD\n      1 ?        00:00:00 sleep\n      4 ?        00:00:00 ps\n');
    // A job an exec left behind lives on, reparented to PID 1.
    await exec(['sh', '-c', 'sleep 300 &']);
    expect((await exec(['ps', '-ef'])).split('\n')[2]).toMatch(/^root {11}6 {7}1 {2}0 \d\d:\d\d \? {8}00:00:00 sleep 300$/);
  });
});

describe('top', () => {
  it("top -b -n 1 prints busybox's header lines and the process table once", async () => {
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: BUSYBOX });
    const lines = (await exec(['top', '-b', '-n', '1'])).split('\n');
    expect(lines[0]).toMatch(/^Mem: \d+K used, \d+K free, 0K shrd, 0K buff, 0K cached$/);
    expect(lines[1]).toMatch(/^CPU: +\d+% usr +0% sys +0% nic +\d+% idle +0% io +0% irq +0% sirq$/);
    expect(lines[2]).toMatch(/^Load average: \d+\.\d\d \d+\.\d\d \d+\.\d\d 1\/2 2$/);
    expect(lines[3]).toBe('  PID  PPID USER     STAT   VSZ %VSZ CPU %CPU COMMAND');
    expect(lines[4]).toMatch(/^ {4}1 {5}0 root {5}S +\d+ +\d+% +0 +\d+% sleep 3600$/);
    expect(lines[5]).toMatch(/^ {4}2 {5}0 root {5}R .* top -b -n 1$/);
    expect(lines).toHaveLength(7);
  });

  it('plain top as PID 1 runs until TERM (its handler exits 128+15), a screen per interval in the log', async () => {
    // Container time 100x: busybox's 5 s interval is 50 ms.
    s = startProcess(['top'], { programs: APPLETS, files: BUSYBOX, timeScale: 100 });
    await new Promise((r) => setTimeout(r, 180));
    expect(s.p.exit).toBeUndefined();
    const screens = s.log.filter((l) => l.includes('PID  PPID USER'));
    expect(screens.length).toBeGreaterThanOrEqual(3);
    expect(screens.length).toBeLessThanOrEqual(5);
    expect(s.log[0]).toBe('stdout: \x1b[H\x1b[JMem: ' + s.log[0]!.slice('stdout: \x1b[H\x1b[JMem: '.length));
    s.p.term();
    expect((await s.p.exited).exitCode).toBe(143);
  });
});

describe('top in an exec and in a Debian image', () => {
  it('kubectl exec … -- top streams its screens to the exec, not the log, until the session ends', async () => {
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: BUSYBOX, timeScale: 100 });
    const seen: string[] = [];
    const ctl = new AbortController();
    const done = s.p.execStream(['top'], { output: (_s, t) => seen.push(String(t)), signal: ctl.signal });
    await new Promise((r) => setTimeout(r, 130));
    ctl.abort();
    expect((await done).exitCode).toBe(137);
    expect(seen.filter((t) => t.includes('  PID  PPID USER')).length).toBeGreaterThanOrEqual(2);
    expect(seen.join('')).toContain(' R ');
    expect(s.log).toEqual([]);
  });

  it("top -b -n 1 in a Debian image prints procps-ng's summary and task table", async () => {
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: DEBIAN });
    const lines = (await exec(['top', '-b', '-n', '1'])).split('\n');
    expect(lines[0]).toMatch(/^top - \d\d:\d\d:\d\d up .*, {2}0 users, {2}load average: \d+\.\d\d, \d+\.\d\d, \d+\.\d\d$/);
    expect(lines[1]).toBe('Tasks:   2 total,   1 running,   1 sleeping,   0 stopped,   0 zombie');
    expect(lines[2]).toMatch(/^%Cpu\(s\): +\d+\.\d us, {2}0\.0 sy, {2}0\.0 ni, *\d+\.\d id, {2}0\.0 wa, {2}0\.0 hi, {2}0\.0 si, {2}0\.0 st $/);
    expect(lines[3]).toMatch(/^MiB Mem : +\d+\.\d total, +\d+\.\d free, +\d+\.\d used, +0\.0 buff\/cache$/);
    expect(lines[6]).toBe('    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND');
    expect(lines[7]).toMatch(/^ {6}1 root {6}20 {3}0 +\d+ +\d+ +\d+ S +\d+\.\d +\d+\.\d +0:00\.\d\d sleep$/);
    expect(lines[8]).toMatch(/^ {6}2 root .* R .* top$/);
  });
});

describe('free, df and mount', () => {
  it('free shows the memory limit and accounted usage in KiB (busybox layout), or the node memory without a limit', async () => {
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: BUSYBOX, memoryLimitBytes: 128 * 1024 * 1024, baseMemoryBytes: 4 * 1024 * 1024 });
    expect(await exec(['free'])).toBe(
      '              total        used        free      shared  buff/cache   available\n' +
        'Mem:         131072        4096      126976           0           0      126976\n' +
        'Swap:             0           0           0\n',
    );
    expect((await exec(['free', '-m'])).split('\n')[1]).toBe('Mem:            128           4         124           0           0         124');
    s.p.kill();
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: DEBIAN });
    const mem = (await exec(['free'])).split('\n');
    expect(mem[0]).toBe('               total        used        free      shared  buff/cache   available');
    expect(mem[1]).toMatch(new RegExp(`^Mem: {4} +${Math.floor(totalmem() / 1024)} `));
  });

  it('df lists the overlay root, /dev, the runtime files and shm (busybox: every mount; coreutils: a device once)', async () => {
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: BUSYBOX });
    const bb = (await exec(['df'])).split('\n');
    expect(bb[0]).toBe('Filesystem           1K-blocks      Used Available Use% Mounted on');
    expect(bb[1]).toMatch(/^overlay {13} +\d+ +\d+ +\d+ +\d+% \/$/);
    expect(bb[2]).toBe('tmpfs                    65536         0     65536   0% /dev');
    expect(bb.filter((l) => l.startsWith('/dev/sda1')).map((l) => l.split(' ').at(-1))).toEqual(['/etc/hosts', '/dev/termination-log', '/etc/hostname', '/etc/resolv.conf']);
    s.p.kill();
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: DEBIAN });
    const gnu = (await exec(['df', '-h'])).split('\n');
    expect(gnu[0]).toMatch(/^Filesystem {6}Size {2}Used Avail Use% Mounted on$/);
    expect(gnu.filter((l) => l.startsWith('/dev/sda1'))).toHaveLength(1);
    expect(gnu).toContain('shm              64M     0   64M   0% /dev/shm');
  });

  it('df PATH prints the header and only the filesystem that holds PATH', async () => {
    const mounts = [{ containerPath: '/data', readonly: false, tmpfs: false }];
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: { ...BUSYBOX, '/data/x/f': 'f\n' }, mounts });
    const root = (await exec(['df', '/etc'])).split('\n');
    expect(root).toHaveLength(3);
    expect(root[0]).toBe('Filesystem           1K-blocks      Used Available Use% Mounted on');
    expect(root[1]).toMatch(/^overlay {13} +\d+ +\d+ +\d+ +\d+% \/$/);
    expect((await exec(['df', '-h', '/data/x'])).split('\n').slice(1)).toEqual([expect.stringMatching(/^\/dev\/sda1 .* \/data$/), '']);
    expect((await exec(['df', '/dev/shm'])).split('\n')[1]).toBe('shm                      65536         0     65536   0% /dev/shm');
    expect(await s.p.execSync(['df', '/nope'], 5000)).toMatchObject({ exitCode: 1, stdout: '', stderr: 'df: /nope: No such file or directory\n' });
    s.p.kill();
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: DEBIAN });
    expect(await exec(['df', '/etc/resolv.conf'])).toMatch(/^Filesystem +1K-blocks +Used +Available Use% Mounted on\n\/dev\/sda1 +\d+ +\d+ +\d+ +\d+% \/etc\/resolv\.conf\n$/);
  });

  it('mount lists overlay on / and the pseudo and volume filesystems', async () => {
    s = startProcess(['sleep', '3600'], { programs: APPLETS, files: BUSYBOX, mounts: [{ containerPath: '/var/run/secrets/kubernetes.io/serviceaccount', readonly: true, tmpfs: true }] });
    const out = (await exec(['mount'])).split('\n');
    expect(out[0]).toMatch(/^overlay on \/ type overlay \(rw,relatime,lowerdir=.*,upperdir=.*,workdir=.*\)$/);
    expect(out).toContain('proc on /proc type proc (rw,nosuid,nodev,noexec,relatime)');
    expect(out).toContain('sysfs on /sys type sysfs (ro,nosuid,nodev,noexec,relatime)');
    expect(out).toContain('cgroup on /sys/fs/cgroup type cgroup2 (ro,nosuid,nodev,noexec,relatime)');
    expect(out).toContain('/dev/sda1 on /etc/resolv.conf type ext4 (rw,relatime)');
    expect(out).toContain('tmpfs on /var/run/secrets/kubernetes.io/serviceaccount type tmpfs (ro,relatime)');
  });
});

describe('/proc and /sys/fs/cgroup', () => {
  it('agree with the container: limits, PID 1, the node CPUs', async () => {
    s = startProcess(['sleep', '3600'], { memoryLimitBytes: 64 * 1024 * 1024, baseMemoryBytes: 2 * 1024 * 1024, cpuMax: { quota: 50_000, period: 100_000 } });
    expect(await exec(['cat', '/sys/fs/cgroup/memory.max'])).toBe('67108864\n');
    expect(await exec(['cat', '/sys/fs/cgroup/memory.current'])).toBe('2097152\n');
    expect(await exec(['cat', '/sys/fs/cgroup/cpu.max'])).toBe('50000 100000\n');
    expect(await exec(['cat', '/proc/self/cgroup'])).toBe('0::/\n');
    expect(await exec(['cat', '/proc/1/cmdline'])).toBe('sleep\x003600\x00');
    const status = await exec(['cat', '/proc/1/status']);
    expect(status).toMatch(/^Name:\tsleep\n/);
    for (const l of ['State:\tS (sleeping)', 'Pid:\t1', 'PPid:\t0', 'Uid:\t0\t0\t0\t0', 'Gid:\t0\t0\t0\t0', 'VmRSS:\t    2048 kB', 'Threads:\t1', 'CapEff:\t00000000a80425fb'])
      expect(status).toContain(`${l}\n`);
    expect(await exec(['grep', 'MemTotal', '/proc/meminfo'])).toBe('MemTotal:          65536 kB\n');
    expect(await exec(['grep', '-c', '^processor', '/proc/cpuinfo'])).toBe(`${cpus().length}\n`);
    // The last field is the newest pid: this cat is the tenth process started.
    expect(await exec(['cat', '/proc/loadavg'])).toMatch(/^\d+\.\d\d \d+\.\d\d \d+\.\d\d 1\/2 10\n$/);
    expect(await exec(['cat', '/proc/uptime'])).toMatch(/^\d+\.\d\d \d+\.\d\d\n$/);
  });

  it('ls shows the processes in /proc and the cgroup files; /proc/version is the node kernel', async () => {
    s = startProcess(['sh', '-c', 'sleep 300 & sleep 3600']);
    await new Promise((r) => setTimeout(r, 50));
    expect(await exec(['ls', '/proc'])).toBe('1\n2\n3\ncpuinfo\nloadavg\nmeminfo\nmounts\nself\nuptime\nversion\n');
    expect(await exec(['ls', '/proc/2'])).toBe('cgroup\ncmdline\ncomm\nfd\nstat\nstatus\n');
    expect(await exec(['ls', '/sys/fs/cgroup'])).toBe('cpu.max\ncpu.stat\nmemory.current\nmemory.max\n');
    expect(await exec(['cat', '/proc/2/comm'])).toBe('sleep\n');
    expect(await exec(['cat', '/proc/version'])).toMatch(new RegExp(`^Linux version ${release().replace(/[.+]/g, '\\$&')} `));
    expect(await exec(['cat', '/proc/version'])).not.toContain('just-bash');
  });

  it('without limits: memory.max and cpu.max say max', async () => {
    s = startProcess(['sleep', '3600']);
    expect(await exec(['cat', '/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/cpu.max'])).toBe('max\nmax 100000\n');
    expect(await s.p.execSync(['cat', '/proc/99/status'], 5000)).toMatchObject({ exitCode: 1 });
  });
});
