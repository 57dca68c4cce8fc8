import { describe, expect, it } from 'vitest';
import { CRASHLOOP_RESTARTS, describeStep, diskFill, FAULTS, findFault, formatFaultList, mergeNodeFaults, planFault, type FaultName, type FaultStep, type NodeFacts } from './fault-catalogue.js';
import { parseFaultArgs } from './fault.js';

const GiB = 1024 ** 3;
const facts: NodeFacts = { containerdPid: 4242, disk: { capacityBytes: 100 * GiB, availableBytes: 60 * GiB }, memoryCapacityBytes: 8 * GiB, pidMax: 4194304 };
const plan = (name: FaultName, clear = false) => planFault(findFault(name)!, clear, facts);

describe('the fault catalogue', () => {
  it('has one entry per name, each with what it does and what you see', () => {
    expect(new Set(FAULTS.map((f) => f.name)).size).toBe(FAULTS.length);
    for (const f of FAULTS) expect([f.what.length > 0, f.see.length > 0]).toEqual([true, true]);
  });

  it.each<[string, FaultName, boolean, FaultStep[]]>([
    [
      'kernel-deadlock: the hung-task lines kernel-monitor.json matches (TaskHung, DockerHung)',
      'kernel-deadlock',
      false,
      [
        { kind: 'kernel', message: 'INFO: task docker:4242 blocked for more than 120 seconds.', priority: 3 },
        { kind: 'kernel', message: '"echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.', priority: 3 },
      ],
    ],
    [
      "kernel-deadlock clear: a new boot's kernel log and NPD restarted",
      'kernel-deadlock',
      true,
      [{ kind: 'kernel-boot' }, { kind: 'systemctl', unit: 'node-problem-detector.service', verb: 'restart' }],
    ],
    [
      'readonly-filesystem: ext4 aborts and remounts read-only, the runtime learns it',
      'readonly-filesystem',
      false,
      [
        { kind: 'kernel', message: 'EXT4-fs error (device sda1): ext4_journal_check_start:83: comm containerd: Detected aborted journal', priority: 3 },
        { kind: 'kernel', message: 'EXT4-fs (sda1): Remounting filesystem read-only', priority: 2 },
        { kind: 'node-state', patch: { readonlyFilesystem: true } },
      ],
    ],
    [
      'readonly-filesystem clear: writable again, then the reboot that resets NPD',
      'readonly-filesystem',
      true,
      [{ kind: 'node-state', patch: { readonlyFilesystem: false } }, { kind: 'kernel-boot' }, { kind: 'systemctl', unit: 'node-problem-detector.service', verb: 'restart' }],
    ],
    ['containerd-hung: SIGSTOP', 'containerd-hung', false, [{ kind: 'signal', unit: 'containerd.service', signal: 'SIGSTOP' }]],
    ['containerd-hung clear: SIGCONT', 'containerd-hung', true, [{ kind: 'signal', unit: 'containerd.service', signal: 'SIGCONT' }]],
    ['containerd-down: systemctl stop', 'containerd-down', false, [{ kind: 'systemctl', unit: 'containerd.service', verb: 'stop' }]],
    ['containerd-down clear: systemctl start', 'containerd-down', true, [{ kind: 'systemctl', unit: 'containerd.service', verb: 'start' }]],
    ['kubelet-crashloop clear: the kubelet runs', 'kubelet-crashloop', true, [{ kind: 'systemctl', unit: 'kubelet.service', verb: 'start' }]],
    ['disk-pressure: 95% of the filesystem taken', 'disk-pressure', false, [{ kind: 'node-state', patch: { usage: { diskBytes: 55 * GiB } } }]],
    ['disk-pressure clear', 'disk-pressure', true, [{ kind: 'node-state', patch: { usage: { diskBytes: 0 } } }]],
    ['memory-pressure: all but 50Mi', 'memory-pressure', false, [{ kind: 'node-state', patch: { usage: { memoryBytes: 8 * GiB - 50 * 1024 * 1024 } } }]],
    ['pid-pressure: 95% of pid_max', 'pid-pressure', false, [{ kind: 'node-state', patch: { usage: { pids: 3984588 } } }]],
    ['oom-kill: a container limited below its usage', 'oom-kill', false, [{ kind: 'oom-kill', memoryBytes: 4096 }]],
    ['oom-kill clear: nothing (the kubelet restarts the container)', 'oom-kill', true, []],
    ['node-partition: cut off', 'node-partition', false, [{ kind: 'node-state', patch: { partitioned: true } }]],
    ['node-partition clear: reconnected', 'node-partition', true, [{ kind: 'node-state', patch: { partitioned: false } }]],
    ['etcd-lost: NATS stopped', 'etcd-lost', false, [{ kind: 'process-signal', process: 'nats', signal: 'SIGSTOP' }]],
    ['etcd-lost clear: NATS continues', 'etcd-lost', true, [{ kind: 'process-signal', process: 'nats', signal: 'SIGCONT' }]],
  ])('%s', (_name, fault, clear, want) => expect(plan(fault, clear)).toEqual(want));

  it(`kubelet-crashloop: ${CRASHLOOP_RESTARTS} crashes and starts, each waited for (log-counter's --count=5 "Started" lines, no "Stopping")`, () => {
    const steps = plan('kubelet-crashloop');
    expect(steps).toHaveLength(CRASHLOOP_RESTARTS * 4);
    expect(steps.slice(0, 4)).toEqual([
      { kind: 'signal', unit: 'kubelet.service', signal: 'SIGKILL' },
      { kind: 'await-unit', unit: 'kubelet.service', active: false },
      { kind: 'systemctl', unit: 'kubelet.service', verb: 'start' },
      { kind: 'await-unit', unit: 'kubelet.service', active: true },
    ]);
    expect(steps.some((s) => s.kind === 'systemctl' && s.verb !== 'start')).toBe(false);
  });

  it.each([
    ['a disk with room', { capacityBytes: 100, availableBytes: 60 }, 55],
    ['a disk already past 95%', { capacityBytes: 100, availableBytes: 3 }, 0],
  ])('diskFill: %s', (_n, disk, want) => expect(diskFill({ ...facts, disk })).toBe(want));

  it.each([
    ['sets read-only', {}, { readonlyFilesystem: true }, { readonlyFilesystem: true }],
    ['partitioned beside read-only', { readonlyFilesystem: true }, { partitioned: true }, { readonlyFilesystem: true, partitioned: true }],
    ['usage fields merge', { usage: { diskBytes: 5 } }, { usage: { pids: 7 } }, { usage: { diskBytes: 5, pids: 7 } }],
    ['a zero clears one field', { readonlyFilesystem: true, usage: { diskBytes: 5, pids: 7 } }, { usage: { diskBytes: 0 } }, { readonlyFilesystem: true, usage: { diskBytes: 0, pids: 7 } }],
  ])('mergeNodeFaults: %s', (_n, s, patch, want) => expect(mergeNodeFaults(s, patch)).toEqual(want));

  it('lists the faults as a table with aligned columns', () => {
    const lines = formatFaultList().trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME {3,}WHAT IT DOES {3,}WHAT YOU SEE$/);
    expect(lines).toHaveLength(FAULTS.length + 1);
    const col = lines[0]!.indexOf('WHAT IT DOES');
    for (const [i, f] of FAULTS.entries()) expect(lines[i + 1]!.slice(0, col).trimEnd()).toBe(f.name);
  });

  it.each<[FaultStep, string]>([
    [{ kind: 'kernel', message: 'INFO: x', priority: 3 }, 'node-1: kernel: INFO: x'],
    [{ kind: 'signal', unit: 'containerd.service', signal: 'SIGSTOP' }, 'node-1: kill -STOP <MainPID of containerd.service>'],
    [{ kind: 'systemctl', unit: 'kubelet.service', verb: 'start' }, 'node-1: systemctl start kubelet.service'],
    [{ kind: 'process-signal', process: 'nats', signal: 'SIGCONT' }, 'control plane: kill -CONT <pid of nats>'],
  ])('describes %j', (step, want) => expect(describeStep('node-1', step)).toBe(want));
});

describe('kubelab fault arguments', () => {
  it.each([
    [['list'], 'list'],
    [['node-1', 'kernel-deadlock'], { node: 'node-1', fault: 'kernel-deadlock', clear: false }],
    [['node-2', 'disk-pressure', '--clear', '--state-dir', '/tmp/s'], { node: 'node-2', fault: 'disk-pressure', clear: true, stateDir: '/tmp/s' }],
  ])('%j', (argv, want) => expect(parseFaultArgs(argv)).toMatchObject(want as object));

  it.each([
    [['node-1'], 'usage: kubelab fault list | kubelab fault <node> <fault> [--clear] [--state-dir DIR]'],
    [['node-1', 'kernel-deadlock', '--force'], 'unknown flag --force'],
  ])('refuses %j', (argv, msg) => expect(() => parseFaultArgs(argv)).toThrow(msg));
});
