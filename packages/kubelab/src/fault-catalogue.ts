// The faults `kubelab fault` injects into a node, as data and pure plans:
// what each does to the node (a kernel line, a signal to a unit's main
// process, a unit stopped or crash-looped, accounted usage) and what a
// person then sees (upstream's conditions, events, taints and messages).
// fault.ts gathers the facts a plan needs and carries out its steps.

import type { NodeFaultState } from '@kubelab/systemd';

export type FaultName =
  | 'kernel-deadlock'
  | 'readonly-filesystem'
  | 'oom-kill'
  | 'containerd-hung'
  | 'containerd-down'
  | 'kubelet-crashloop'
  | 'disk-pressure'
  | 'memory-pressure'
  | 'pid-pressure'
  | 'node-partition'
  | 'etcd-lost';

/** What a fault does to the node, one step at a time. */
export type FaultStep =
  /** A line in the node's kernel log (/dev/kmsg's role: the journal's kernel.jsonl). */
  | { kind: 'kernel'; message: string; priority: number }
  /** The kernel log starts afresh, as /dev/kmsg after a reboot (the previous boot's lines kept aside). */
  | { kind: 'kernel-boot' }
  /** `systemctl start|stop|restart` through the unit's control socket. */
  | { kind: 'systemctl'; unit: string; verb: 'start' | 'stop' | 'restart' }
  /** `kill -SIG <MainPID>` of a unit (the pid its unit state records). */
  | { kind: 'signal'; unit: string; signal: 'SIGSTOP' | 'SIGCONT' | 'SIGKILL' }
  /** Waits until the unit is (or is no longer) active. */
  | { kind: 'await-unit'; unit: string; active: boolean }
  /** Merged into the node's fault state (<root>/run/systemd/kubelab-faults/node.json). */
  | { kind: 'node-state'; patch: NodeFaultState }
  /**
   * `crictl update --memory <bytes>` on a running container of the node (the newest outside kube-system, or the pod
   * named): its memory cgroup's limit drops below what it uses, and the kernel's OOM killer ends it.
   */
  | { kind: 'oom-kill'; memoryBytes: number }
  /** A signal to a control-plane process of the local runner, by its pid file (<state>/run/<name>.pid). */
  | { kind: 'process-signal'; process: string; signal: 'SIGSTOP' | 'SIGCONT' };

/** What the plans need to know about the node right now (fault.ts reads it). */
export interface NodeFacts {
  /** containerd's MainPID (0 when not running). */
  containerdPid: number;
  /** The node filesystem as the kubelet's eviction stats see it (statfs). */
  disk: { capacityBytes: number; availableBytes: number };
  memoryCapacityBytes: number;
  pidMax: number;
}

export interface FaultEntry {
  name: FaultName;
  what: string;
  see: string;
  inject(f: NodeFacts): FaultStep[];
  clear(f: NodeFacts): FaultStep[];
}

const MiB = 1024 * 1024;

/** The memory limit oom-kill sets: one page, below what any process uses. */
export const OOM_LIMIT_BYTES = 4096;

/** The ring of restarts a crash-looping kubelet goes through: log-counter's --count=5 for FrequentKubeletRestart. */
export const CRASHLOOP_RESTARTS = 5;

/** A hung task as the kernel's hung-task detector reports it (khungtaskd): the line kernel-monitor.json's TaskHung and DockerHung match. */
export function hungTaskLines(pid: number): FaultStep[] {
  return [
    { kind: 'kernel', message: `INFO: task docker:${pid} blocked for more than 120 seconds.`, priority: 3 },
    { kind: 'kernel', message: '"echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.', priority: 3 },
  ];
}

/** ext4 aborting its journal and remounting read-only (ext4_handle_error): Ext4Error, then readonly-monitor.json's line. */
export const READONLY_LINES: FaultStep[] = [
  { kind: 'kernel', message: 'EXT4-fs error (device sda1): ext4_journal_check_start:83: comm containerd: Detected aborted journal', priority: 3 },
  { kind: 'kernel', message: 'EXT4-fs (sda1): Remounting filesystem read-only', priority: 2 },
];

/** NPD's permanent conditions stay until NPD restarts; after a reboot the kernel log no longer holds the line. */
const REBOOT_CLEARS_KERNEL_CONDITION: FaultStep[] = [{ kind: 'kernel-boot' }, { kind: 'systemctl', unit: 'node-problem-detector.service', verb: 'restart' }];

/** Usage that leaves about `leftFraction` of the node filesystem available (as filling it with a large file). */
export function diskFill(f: NodeFacts, leftFraction = 0.05): number {
  return Math.max(0, Math.floor(f.disk.availableBytes - f.disk.capacityBytes * leftFraction));
}

export const FAULTS: readonly FaultEntry[] = [
  {
    name: 'kernel-deadlock',
    what: 'appends a hung task (task docker:<pid> blocked for more than 120 seconds) to the kernel log',
    see: 'KernelDeadlock True (DockerHung), event TaskHung; clear: the kernel log of a new boot and NPD restarted',
    inject: (f) => hungTaskLines(f.containerdPid || 1),
    clear: () => REBOOT_CLEARS_KERNEL_CONDITION,
  },
  {
    name: 'readonly-filesystem',
    what: 'remounts the node filesystem read-only (ext4 aborted journal): container writes fail with EROFS',
    see: 'ReadonlyFilesystem True (FilesystemIsReadOnly), event Ext4Error, "Read-only file system" in containers',
    inject: () => [...READONLY_LINES, { kind: 'node-state', patch: { readonlyFilesystem: true } }],
    clear: () => [{ kind: 'node-state', patch: { readonlyFilesystem: false } }, ...REBOOT_CLEARS_KERNEL_CONDITION],
  },
  {
    name: 'oom-kill',
    what: `lowers a running container's memory limit below its usage (crictl update --memory ${OOM_LIMIT_BYTES}): the kernel OOM-kills it`,
    see: 'container Terminated: OOMKilled, exit code 137; kernel log "Memory cgroup out of memory: Killed process …", event OOMKilling; nothing to clear (the kubelet restarts it with its limits)',
    inject: () => [{ kind: 'oom-kill', memoryBytes: OOM_LIMIT_BYTES }],
    clear: () => [],
  },
  {
    name: 'containerd-hung',
    what: "stops containerd's process (SIGSTOP): it lives but answers no CRI call",
    see: 'NotReady: PLEG is not healthy: pleg was last seen active …; threshold is 3m0s (CRI calls time out)',
    inject: () => [{ kind: 'signal', unit: 'containerd.service', signal: 'SIGSTOP' }],
    clear: () => [{ kind: 'signal', unit: 'containerd.service', signal: 'SIGCONT' }],
  },
  {
    name: 'containerd-down',
    what: 'systemctl stop containerd',
    see: 'NotReady: container runtime is down; ContainerRuntimeUnhealthy (NPD health checker)',
    inject: () => [{ kind: 'systemctl', unit: 'containerd.service', verb: 'stop' }],
    clear: () => [{ kind: 'systemctl', unit: 'containerd.service', verb: 'start' }],
  },
  {
    name: 'kubelet-crashloop',
    what: `kills the kubelet (SIGKILL) and starts it again, ${CRASHLOOP_RESTARTS} times`,
    see: "FrequentKubeletRestart True at NPD's next check (every 5m), KubeletStart events; clears after 20m",
    inject: () =>
      Array.from({ length: CRASHLOOP_RESTARTS }, (): FaultStep[] => [
        { kind: 'signal', unit: 'kubelet.service', signal: 'SIGKILL' },
        { kind: 'await-unit', unit: 'kubelet.service', active: false },
        { kind: 'systemctl', unit: 'kubelet.service', verb: 'start' },
        { kind: 'await-unit', unit: 'kubelet.service', active: true },
      ]).flat(),
    clear: () => [{ kind: 'systemctl', unit: 'kubelet.service', verb: 'start' }],
  },
  {
    name: 'disk-pressure',
    what: 'fills the node filesystem to 95% (accounted, not written)',
    see: 'DiskPressure True (KubeletHasDiskPressure), taint node.kubernetes.io/disk-pressure:NoSchedule, evictions',
    inject: (f) => [{ kind: 'node-state', patch: { usage: { diskBytes: diskFill(f) } } }],
    clear: () => [{ kind: 'node-state', patch: { usage: { diskBytes: 0 } } }],
  },
  {
    name: 'memory-pressure',
    what: 'takes all but 50Mi of the node memory (accounted, not allocated)',
    see: 'MemoryPressure True (KubeletHasInsufficientMemory), taint node.kubernetes.io/memory-pressure:NoSchedule, evictions',
    inject: (f) => [{ kind: 'node-state', patch: { usage: { memoryBytes: Math.max(0, f.memoryCapacityBytes - 50 * MiB) } } }],
    clear: () => [{ kind: 'node-state', patch: { usage: { memoryBytes: 0 } } }],
  },
  {
    name: 'pid-pressure',
    what: 'runs the node up to 95% of pid_max (accounted processes)',
    see: 'PIDPressure True (KubeletHasInsufficientPID) with a pid.available threshold in --eviction-hard, taint node.kubernetes.io/pid-pressure:NoSchedule',
    inject: (f) => [{ kind: 'node-state', patch: { usage: { pids: Math.floor(f.pidMax * 0.95) } } }],
    clear: () => [{ kind: 'node-state', patch: { usage: { pids: 0 } } }],
  },
  {
    name: 'node-partition',
    what: "cuts the node off from the control plane: the kubelet's connections to the apiserver go unanswered",
    see: 'pods keep running; Ready Unknown (NodeStatusUnknown: Kubelet stopped posting node status.) after the grace period, taint node.kubernetes.io/unreachable, evictions after the toleration (300s)',
    inject: () => [{ kind: 'node-state', patch: { partitioned: true } }],
    clear: () => [{ kind: 'node-state', patch: { partitioned: false } }],
  },
  {
    name: 'etcd-lost',
    what: "stops the store in etcd's role (the runner's NATS server, SIGSTOP)",
    see: 'apiserver /readyz: [-]etcd failed: reason withheld; writes fail',
    inject: () => [{ kind: 'process-signal', process: 'nats', signal: 'SIGSTOP' }],
    clear: () => [{ kind: 'process-signal', process: 'nats', signal: 'SIGCONT' }],
  },
];

export function findFault(name: string): FaultEntry | undefined {
  return FAULTS.find((f) => f.name === name);
}

/** The steps of injecting or clearing a fault. */
export function planFault(entry: FaultEntry, clear: boolean, facts: NodeFacts): FaultStep[] {
  return clear ? entry.clear(facts) : entry.inject(facts);
}

/** Applies a step's patch to the node's fault state (usage fields merge; 0 removes one). */
export function mergeNodeFaults(s: NodeFaultState, patch: NodeFaultState): NodeFaultState {
  return {
    ...s,
    ...(patch.readonlyFilesystem !== undefined ? { readonlyFilesystem: patch.readonlyFilesystem } : {}),
    ...(patch.partitioned !== undefined ? { partitioned: patch.partitioned } : {}),
    ...(patch.usage ? { usage: { ...s.usage, ...patch.usage } } : {}),
  };
}

/** `kubelab fault list`: columns padded as kubectl's printers pad them (three spaces). */
export function formatFaultList(entries: readonly FaultEntry[] = FAULTS): string {
  const rows = [['NAME', 'WHAT IT DOES', 'WHAT YOU SEE'], ...entries.map((e) => [e.name, e.what, e.see])];
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => `${r[0]!.padEnd(widths[0]! + 3)}${r[1]!.padEnd(widths[1]! + 3)}${r[2]}`).join('\n') + '\n';
}

/** One line per step, as the command reports what it did. */
export function describeStep(node: string, s: FaultStep): string {
  switch (s.kind) {
    case 'kernel':
      return `${node}: kernel: ${s.message}`;
    case 'kernel-boot':
      return `${node}: kernel log of a new boot (the previous boot's lines kept in kernel.jsonl.prev-boot)`;
    case 'systemctl':
      return `${node}: systemctl ${s.verb} ${s.unit}`;
    case 'signal':
      return `${node}: kill -${s.signal.slice(3)} <MainPID of ${s.unit}>`;
    case 'await-unit':
      return `${node}: ${s.unit} ${s.active ? 'active' : 'no longer active'}`;
    case 'node-state':
      return `${node}: fault state ${JSON.stringify(s.patch)}`;
    case 'oom-kill':
      return `${node}: crictl update --memory ${s.memoryBytes} <the newest running container outside kube-system>`;
    case 'process-signal':
      return `control plane: kill -${s.signal.slice(3)} <pid of ${s.process}>`;
  }
}
