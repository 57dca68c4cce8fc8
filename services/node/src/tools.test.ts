import { beforeAll, describe, expect, it } from 'vitest';
import type { JournalRecord } from '@kubelab/systemd';
import { formatDf, humanCeil, mountSource } from './df.js';
import { formatKernelLine } from './dmesg.js';
import { formatFree, formatUptime, humanIec, parseMeminfo } from './meminfo.js';
import { formatPsAux, formatPsEf, formatTop, statText, startText, type PsContext } from './ps.js';
import { parseStat, type Proc } from './proc.js';
import { containerProcs, shareOf, withContainerProcs, type ShimPs } from './shim-ps.js';

beforeAll(() => {
  process.env.TZ = 'UTC';
});

describe('dmesg', () => {
  const r: JournalRecord = {
    __REALTIME_TIMESTAMP: String(Date.parse('2026-12-01T13:33:15Z') * 1000),
    _HOSTNAME: 'node-1',
    SYSLOG_IDENTIFIER: 'kernel',
    PRIORITY: '3',
    _TRANSPORT: 'kernel',
    MESSAGE: 'INFO: task jbd2/sda1-8:312 blocked for more than 120 seconds.',
    _SOURCE_MONOTONIC_TIMESTAMP: '123456789',
  };
  it.each([
    [false, '[  123.456789] INFO: task jbd2/sda1-8:312 blocked for more than 120 seconds.'],
    [true, '[Tue Dec  1 13:33:15 2026] INFO: task jbd2/sda1-8:312 blocked for more than 120 seconds.'],
  ])('-T %s', (ctime, want) => expect(formatKernelLine(r, ctime)).toBe(want));
});

const MEMINFO =
  'MemTotal:       16335268 kB\nMemFree:         1264052 kB\nMemAvailable:   11503592 kB\nBuffers:          102400 kB\nCached:         10000000 kB\nSwapCached:            0 kB\nShmem:            580000 kB\nSReclaimable:     544000 kB\nSwapTotal:       2097148 kB\nSwapFree:        2097148 kB\n';

describe('free', () => {
  const mem = parseMeminfo(MEMINFO);
  it('-m', () =>
    expect(formatFree(mem, 'm')).toBe(
      [
        '               total        used        free      shared  buff/cache   available',
        'Mem:           15952        4718        1234         566       10396       11233',
        'Swap:           2047           0        2047',
        '',
      ].join('\n'),
    ));
  it('-h', () => expect(formatFree(mem, 'h').split('\n')[1]).toBe('Mem:            15Gi       4.6Gi       1.2Gi       566Mi        10Gi        10Gi'));
  it.each([
    [0, '0B'],
    [1536, '1.5Ki'],
    [600 * 1024 ** 2, '600Mi'],
  ])('humanIec %d', (b, want) => expect(humanIec(b)).toBe(want));
});

describe('uptime', () => {
  const now = new Date('2026-12-01T13:33:15Z');
  it.each([
    [182, 1, ' 13:33:15 up 3 min,  1 user,  load average: 0.52, 0.58, 0.59\n'],
    [3 * 86400 + 2 * 3600 + 5 * 60, 0, ' 13:33:15 up 3 days,  2:05,  0 users,  load average: 0.52, 0.58, 0.59\n'],
  ])('%d s, %d users', (up, users, want) => expect(formatUptime(now, up, users, [0.52, 0.58, 0.59])).toBe(want));
});

describe('df', () => {
  it('-h with coreutils widths', () =>
    expect(formatDf([{ source: '/dev/sda1', sizeBytes: 105_088_212_992, usedBytes: 21_474_836_480, availBytes: 79_456_894_976, target: '/' }], true)).toBe(
      ['Filesystem      Size  Used Avail Use% Mounted on', '/dev/sda1        98G   20G   74G  22% /', ''].join('\n'),
    ));
  it.each([
    [1023, '1023'],
    [4_080_218_931, '3.8G'],
    [828_375_040, '790M'],
  ])('humanCeil %d', (b, want) => expect(humanCeil(b)).toBe(want));
  it('finds the mount holding a path', () => {
    const info = '22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n30 22 0:50 / /tmp rw - tmpfs tmpfs rw\n';
    expect([mountSource('/tmp/x/nodes/node-1/root', info), mountSource('/work', info)]).toEqual(['tmpfs', '/dev/vda']);
  });
});

describe('ps and top', () => {
  const stat = '312 (kube let) S 1 312 312 0 -1 4194560 100 0 0 0 150 50 0 0 20 0 11 0 500 1234567168 9000 18446744073709551615';
  it('parses /proc/<pid>/stat with spaces in comm', () =>
    expect(parseStat(stat)).toMatchObject({ pid: 312, comm: 'kube let', state: 'S', ppid: 1, session: 312, utime: 150, stime: 50, threads: 11, starttime: 500 }));

  const c: PsContext = { now: new Date('2026-12-01T13:33:15Z'), bootTime: Date.parse('2026-12-01T13:00:00Z') / 1000, memTotalKb: 16_000_000, users: new Map([[0, 'root']]) };
  const proc = (pid: number, ppid: number, cmdline: string, extra: Partial<Proc> = {}): Proc => ({
    pid,
    ppid,
    uid: 0,
    state: 'S',
    pgrp: pid,
    session: pid,
    tpgid: -1,
    comm: cmdline.split(' ')[0]!.split('/').pop()!,
    cmdline,
    utime: 150,
    stime: 50,
    starttime: 100 * 60 * 30, // 13:30:00
    priority: 20,
    nice: 0,
    threads: 11,
    vszKb: 1205632,
    rssKb: 80000,
    shrKb: 40000,
    tty: '?',
    ...extra,
  });
  const procs = [
    proc(312, 1, '/usr/bin/containerd'),
    proc(400, 312, 'containerd-shim-runc-v2 -id abc', { threads: 1, session: 1 }),
    proc(401, 400, 'nginx: master process', { session: 1, threads: 1 }),
  ];

  it('ps aux', () =>
    expect(formatPsAux(procs, c).split('\n').slice(0, 3)).toEqual([
      'USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND',
      'root         312  1.0  0.5 1205632 80000 ?        Ssl  13:30   0:02 /usr/bin/containerd',
      'root         400  1.0  0.5 1205632 80000 ?        S    13:30   0:02 containerd-shim-runc-v2 -id abc',
    ]));

  it('ps -ef --forest', () =>
    expect(formatPsEf(procs, c, true)).toBe(
      [
        'UID          PID    PPID  C STIME TTY          TIME CMD',
        'root         312       1  1 13:30 ?        00:00:02 /usr/bin/containerd',
        'root         400     312  1 13:30 ?        00:00:02  \\_ containerd-shim-runc-v2 -id abc',
        'root         401     400  1 13:30 ?        00:00:02      \\_ nginx: master process',
        '',
      ].join('\n'),
    ));

  it('ps -ef --forest: a shim after containerd restarted, with its containers under it at their container PIDs', () => {
    const id = 'a'.repeat(64);
    const shim = proc(400, 1, `containerd-shim-runc-v2 -namespace k8s.io -id ${id} -address /run/containerd/containerd.sock`, { threads: 1, session: 400 });
    const rows = [proc(512, 1, '/usr/bin/containerd'), shim, ...containerProcs(shim, { pid: 400, tasks: [{ id: 'c1', pid: 1, argv: ['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;'] }] })];
    expect(formatPsEf(rows, c, true)).toBe(
      [
        'UID          PID    PPID  C STIME TTY          TIME CMD',
        'root         512       1  1 13:30 ?        00:00:02 /usr/bin/containerd',
        `root         400       1  1 13:30 ?        00:00:02 containerd-shim-runc-v2 -namespace k8s.io -id ${id} -address /run/containerd/containerd.sock`,
        'root           1     400  0 13:30 ?        00:00:00  \\_ /docker-entrypoint.sh nginx -g daemon off;',
        '',
      ].join('\n'),
    );
    // A ps.json of another process (a recycled pid) adds nothing.
    expect(containerProcs(shim, { pid: 401, tasks: [{ id: 'c1', pid: 1, argv: ['sh'] }] })).toEqual([]);
  });

  it.each([
    [{}, 'S'],
    [{ session: 1, threads: 1 }, 'S'],
    [{ nice: 5 }, 'SNsl'],
    [{ state: 'R', tpgid: 312, threads: 1 }, 'Rs+'],
  ] as const)('STAT %j', (extra, want) =>
    expect(statText(proc(312, 1, 'x', { session: 1, ...extra, ...('session' in extra ? {} : { session: 312 }) }))).toBe(want === 'S' && !('session' in extra) ? 'Ssl' : want),
  );

  it('ps -ef --forest: the shim host is one containerd-shim-runc-v2 row per sandbox (virtual pids), each with its containers under it', () => {
    const [a, b] = ['a'.repeat(64), 'b'.repeat(64)];
    const sock = '/run/containerd/containerd.sock';
    const host = proc(400, 312, `containerd-shim-runc-v2 -namespace k8s.io -address ${sock}`, { threads: 7, utime: 301, stime: 100, rssKb: 60001 });
    const shim = (id: string, pid: number, argv: string[]): ShimPs => ({
      pid,
      host: 400,
      argv: ['containerd-shim-runc-v2', '-namespace', 'k8s.io', '-id', id, '-address', sock],
      startedMs: Date.parse('2026-12-01T13:31:00Z'),
      tasks: [{ id: `c-${id}`, pid: 1, argv }],
    });
    const read = {
      psFile: (pid: number) => (pid === 400 ? { pid: 400, shims: '../io.containerd.runtime.v2.task/k8s.io' } : undefined),
      hostShims: () => [shim(b, 32772, ['sleep', '3600']), shim(a, 32770, ['/docker-entrypoint.sh', 'nginx', '-g', 'daemon off;']), { ...shim('c'.repeat(64), 32774, ['sh']), host: 399 }],
      bootTime: c.bootTime,
    };
    const rows = withContainerProcs([proc(312, 1, '/usr/bin/containerd'), host], () => c.bootTime, true, read);
    expect(formatPsEf(rows, c, true)).toBe(
      [
        'UID          PID    PPID  C STIME TTY          TIME CMD',
        'root         312       1  1 13:30 ?        00:00:02 /usr/bin/containerd',
        `root       32770     312  1 13:31 ?        00:00:02  \\_ containerd-shim-runc-v2 -namespace k8s.io -id ${a} -address ${sock}`,
        'root           1   32770  0 13:31 ?        00:00:00      \\_ /docker-entrypoint.sh nginx -g daemon off;',
        `root       32772     312  1 13:31 ?        00:00:02  \\_ containerd-shim-runc-v2 -namespace k8s.io -id ${b} -address ${sock}`,
        'root           1   32772  0 13:31 ?        00:00:00      \\_ sleep 3600',
        '',
      ].join('\n'),
    );
    // systemctl status's cgroup: the shims without their containers, the host's usage split between them.
    const shims = withContainerProcs([host], () => c.bootTime, false, read);
    expect(shims.map((p) => [p.pid, p.ppid, p.comm, p.threads, p.utime + p.stime, p.rssKb])).toEqual([
      [32770, 312, 'containerd-shim', 4, 201, 30001],
      [32772, 312, 'containerd-shim', 3, 200, 30000],
    ]);
  });

  it.each([
    [{ utime: 10, stime: 0, rssKb: 9, vszKb: 0, shrKb: 0, threads: 1 }, 3, 0, { utime: 4, stime: 0, rssKb: 3, vszKb: 0, shrKb: 0, threads: 1 }],
    [{ utime: 10, stime: 0, rssKb: 9, vszKb: 0, shrKb: 0, threads: 1 }, 3, 2, { utime: 3, stime: 0, rssKb: 3, vszKb: 0, shrKb: 0, threads: 1 }],
    [{ utime: 1, stime: 7, rssKb: 100, vszKb: 5, shrKb: 2, threads: 11 }, 1, 0, { utime: 1, stime: 7, rssKb: 100, vszKb: 5, shrKb: 2, threads: 11 }],
  ])('a shim share of the host %j among %i, #%i', (host, n, i, want) => expect(shareOf(host, n, i)).toEqual(want));

  it('START texts', () =>
    expect([startText(new Date('2026-12-01T08:05:00Z'), c.now), startText(new Date('2026-11-30T08:05:00Z'), c.now), startText(new Date('2025-01-02T00:00:00Z'), c.now)]).toEqual([
      '08:05',
      'Nov30',
      '2025',
    ]));

  it('top -bn1', () => {
    const out = formatTop(procs.slice(0, 1), c, ' 13:33:15 up 33 min,  0 users,  load average: 0.52, 0.58, 0.59\n', parseMeminfo(MEMINFO), [100, 0, 50, 850, 0, 0, 0, 0]).split('\n');
    expect(out).toEqual([
      'top - 13:33:15 up 33 min,  0 users,  load average: 0.52, 0.58, 0.59',
      'Tasks:   1 total,   0 running,   1 sleeping,   0 stopped,   0 zombie',
      '%Cpu(s): 10.0 us,  5.0 sy,  0.0 ni, 85.0 id,  0.0 wa,  0.0 hi,  0.0 si,  0.0 st',
      'MiB Mem :  15952.4 total,   1234.4 free,   4718.4 used,  10396.9 buff/cache',
      'MiB Swap:   2048.0 total,   2048.0 free,      0.0 used.  11234.0 avail Mem',
      '',
      '    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND',
      '    312 root      20   0 1205632  80000  40000 S   1.0   0.5   0:02.00 containerd',
      '',
    ]);
  });
});
