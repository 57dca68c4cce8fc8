import { beforeAll, describe, expect, it } from 'vitest';
import { initialState, onExited, onStarted, onStarting, type UnitState } from '@kubelab/systemd';
import { formatBytes, formatListUnits, formatStatus, managerUnreachable, type UnitProc } from './systemctl-format.js';

beforeAll(() => {
  process.env.TZ = 'UTC';
});

const def = {
  unit: 'kubelet.service',
  description: 'kubelet: The Kubernetes Node Agent',
  fragmentPath: '/usr/lib/systemd/system/kubelet.service',
  documentation: ['https://kubernetes.io/docs/'],
  execStart: '/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml',
};
const started = new Date('2026-12-01T13:30:12Z');
const now = new Date('2026-12-01T13:33:14Z');
const running = onStarted(onStarting(initialState(def), started), 312, started);
const procs: UnitProc[] = [
  { pid: 312, comm: 'kubelet', cmdline: '/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml', rssKb: 36_045, threads: 11, cpuUs: 1_234_000 },
  { pid: 340, comm: 'sh', cmdline: 'sh -c true', rssKb: 1000, threads: 1, cpuUs: 0 },
];
const journal = ['Dec 01 13:33:13 node-1 kubelet[312]: I1201 13:33:13.000000     312 kubelet.go:1] "Starting"'];

describe('formatStatus', () => {
  it('active (running): Main PID, Tasks, Memory, CPU, CGroup, then the journal', () => {
    expect(formatStatus(running, procs, journal, now)).toBe(
      [
        '● kubelet.service - kubelet: The Kubernetes Node Agent',
        '     Loaded: loaded (/usr/lib/systemd/system/kubelet.service; enabled; preset: enabled)',
        '     Active: active (running) since Tue 2026-12-01 13:30:12 UTC; 3min 2s ago',
        '       Docs: https://kubernetes.io/docs/',
        '   Main PID: 312 (kubelet)',
        '      Tasks: 12',
        '     Memory: 36.1M',
        '        CPU: 1.234s',
        '     CGroup: /system.slice/kubelet.service',
        '             ├─312 /usr/bin/kubelet --config=/var/lib/kubelet/config.yaml',
        '             └─340 sh -c true',
        '',
        journal[0],
        '',
      ].join('\n'),
    );
  });

  it('failed (Result: signal) after kill -9: Duration, Process and Main PID with the signal', () => {
    const killed = onExited(running, null, 'SIGKILL', new Date('2026-12-01T13:33:00.500Z'));
    expect(formatStatus(killed, [], [], now)).toBe(
      [
        '× kubelet.service - kubelet: The Kubernetes Node Agent',
        '     Loaded: loaded (/usr/lib/systemd/system/kubelet.service; enabled; preset: enabled)',
        '     Active: failed (Result: signal) since Tue 2026-12-01 13:33:00 UTC; 13s ago',
        '   Duration: 2min 48.500s',
        '       Docs: https://kubernetes.io/docs/',
        '    Process: 312 ExecStart=/usr/bin/kubelet --config=/var/lib/kubelet/config.yaml (code=killed, signal=KILL)',
        '   Main PID: 312 (code=killed, signal=KILL)',
        '',
      ].join('\n'),
    );
  });

  it.each<[string, UnitState, string]>([
    [
      'stopped cleanly',
      onExited(running, null, 'SIGTERM', now),
      '○ kubelet.service - kubelet: The Kubernetes Node Agent|     Active: inactive (dead) since Tue 2026-12-01 13:33:14 UTC; now|   Main PID: 312 (code=killed, signal=TERM)',
    ],
    [
      'exit code',
      onExited(running, 1, null, now),
      '× kubelet.service - kubelet: The Kubernetes Node Agent|     Active: failed (Result: exit-code) since Tue 2026-12-01 13:33:14 UTC; now|   Main PID: 312 (code=exited, status=1/FAILURE)',
    ],
    ['never started', initialState(def), '○ kubelet.service - kubelet: The Kubernetes Node Agent|     Active: inactive (dead)|'],
  ])('%s', (_n, s, want) => {
    const lines = formatStatus(s, [], [], now).split('\n');
    const [glyphLine, active, main] = want.split('|');
    expect(lines[0]).toBe(glyphLine);
    expect(lines[2]).toBe(active);
    if (main) expect(lines).toContain(main);
    else expect(lines.some((l) => l.includes('Main PID'))).toBe(false);
  });
});

describe('formatListUnits', () => {
  const failed = { ...onExited(running, null, 'SIGKILL', now), unit: 'kubelet.service' };
  const containerd = { ...running, unit: 'containerd.service', description: 'containerd container runtime' };
  const stopped = { ...initialState(def), unit: 'kube-proxy.service', description: 'kube-proxy: The Kubernetes Network Proxy' };
  it('lists active and failed units with the legend; --all adds the inactive', () => {
    expect(formatListUnits([containerd, stopped, failed], false)).toBe(
      [
        '  UNIT               LOAD   ACTIVE SUB     DESCRIPTION',
        '  containerd.service loaded active running containerd container runtime',
        '● kubelet.service    loaded failed failed  kubelet: The Kubernetes Node Agent',
        '',
        'LOAD   = Reflects whether the unit definition was properly loaded.',
        'ACTIVE = The high-level unit activation state, i.e. generalization of SUB.',
        'SUB    = The low-level unit activation state, values depend on unit type.',
        '2 loaded units listed. Pass --all to see loaded but inactive units, too.',
        "To show all installed unit files use 'systemctl list-unit-files'.",
        '',
      ].join('\n'),
    );
    expect(formatListUnits([containerd, stopped, failed], true)).toContain('  kube-proxy.service loaded inactive dead    kube-proxy: The Kubernetes Network Proxy\n');
    expect(formatListUnits([containerd, stopped, failed], true)).toContain('\n3 loaded units listed.\n');
  });
});

describe('formatBytes (format_bytes)', () => {
  it.each([
    [512, '512B'],
    [2048, '2.0K'],
    [36_911_104, '35.2M'],
    [1.5 * 1024 ** 3, '1.5G'],
  ])('%d → %s', (n, want) => expect(formatBytes(n)).toBe(want));
});

describe('managerUnreachable', () => {
  it.each([
    [{ unit: 'kubelet.service' }, 'Failed to start kubelet.service: Connection refused\n'],
    [
      { unit: 'kubelet.service', container: 'kubelet-2' },
      'Failed to start kubelet.service: Connection refused\nkubelet.service runs in the container of compose service kubelet-2, which is not running: start it on the host with `docker compose start kubelet-2`.\n',
    ],
  ])('%j', (s, text) => expect(managerUnreachable('start', s, 'Connection refused')).toBe(text));
});
