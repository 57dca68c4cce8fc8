// The `info` map of verbose PodSandboxStatus and ContainerStatus, shaped as
// containerd 1.7's (crictl inspect / inspectp print it): the CRI config it was
// created from, the OCI runtime spec it would hand runc, the runtime type and
// the pid of the task as the node's process table shows it.

import type { ImageDef } from '@kubelab/images';
import type { Container, Sandbox } from './runtime.js';
import { netnsPath } from './streaming/dial.js';

const DEFAULT_CAPS = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_FSETID',
  'CAP_FOWNER',
  'CAP_MKNOD',
  'CAP_NET_RAW',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETFCAP',
  'CAP_SETPCAP',
  'CAP_NET_BIND_SERVICE',
  'CAP_SYS_CHROOT',
  'CAP_KILL',
  'CAP_AUDIT_WRITE',
];
const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

type NsMode = string | undefined;

function namespaces(sb: Sandbox, pid: number, c?: Container) {
  const ns = sb.config.linux?.securityContext?.namespaceOptions;
  const own = (mode: NsMode) => mode !== 'NODE';
  const list: { type: string; path?: string }[] = [];
  const pidMode = c ? c.config.linux?.securityContext?.namespaceOptions?.pid : ns?.pid;
  if (own(pidMode)) list.push(pidMode === 'POD' && c ? { type: 'pid', path: `/proc/${pid}/ns/pid` } : { type: 'pid' });
  if (own(ns?.ipc)) list.push(c ? { type: 'ipc', path: `/proc/${pid}/ns/ipc` } : { type: 'ipc' });
  list.push(c ? { type: 'uts', path: `/proc/${pid}/ns/uts` } : { type: 'uts' });
  list.push({ type: 'mount' });
  if (own(ns?.network)) list.push({ type: 'network', path: netnsPath(sb.id) });
  return list;
}

function uidOf(c: Container, def: ImageDef | undefined): number {
  const v = c.config.linux?.securityContext?.runAsUser?.value;
  return v !== undefined && v !== null ? Number(v) : (def?.uid ?? 0);
}

export function containerRuntimeSpec(c: Container, sb: Sandbox, def: ImageDef | undefined, pid: number) {
  const args = [...(c.config.command.length ? c.config.command : (def?.entrypoint ?? [])), ...(c.config.command.length || c.config.args.length ? c.config.args : (def?.cmd ?? []))];
  const env = [...Object.entries(def?.env ?? { PATH }).map(([k, v]) => `${k}=${v}`), `HOSTNAME=${sb.config.hostname}`, ...c.config.envs.map((e) => `${e.key}=${e.value}`)];
  const sc = c.config.linux?.securityContext;
  const caps = sc?.privileged ? ['ALL'] : DEFAULT_CAPS;
  const res = c.resources ?? c.config.linux?.resources;
  return {
    ociVersion: '1.1.0',
    process: {
      terminal: c.config.tty,
      user: { uid: uidOf(c, def), gid: Number(sc?.runAsGroup?.value ?? def?.gid ?? 0), additionalGids: [0, ...(sc?.supplementalGroups ?? []).map(Number)] },
      args,
      env,
      cwd: c.config.workingDir || def?.workingDir || '/',
      capabilities: { bounding: caps, effective: caps, permitted: caps },
      noNewPrivileges: sc?.noNewPrivs ?? false,
      apparmorProfile: 'cri-containerd.apparmor.d',
      oomScoreAdj: Number(res?.oomScoreAdj ?? 0),
    },
    root: { path: 'rootfs', readonly: sc?.readonlyRootfs ?? false },
    hostname: sb.config.hostname,
    mounts: [
      { destination: '/proc', type: 'proc', source: 'proc', options: ['nosuid', 'noexec', 'nodev'] },
      { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
      { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
      { destination: '/etc/hosts', type: 'bind', source: `/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/${sb.id}/hosts`, options: ['rbind', 'rprivate', 'rw'] },
      { destination: '/etc/resolv.conf', type: 'bind', source: `/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/${sb.id}/resolv.conf`, options: ['rbind', 'rprivate', 'rw'] },
      ...c.config.mounts.map((m) => ({ destination: m.containerPath, type: 'bind', source: m.hostPath, options: ['rbind', 'rprivate', m.readonly ? 'ro' : 'rw'] })),
    ],
    annotations: {
      'io.kubernetes.cri.container-type': 'container',
      'io.kubernetes.cri.container-name': c.config.metadata?.name ?? '',
      'io.kubernetes.cri.image-name': c.config.image?.image ?? '',
      'io.kubernetes.cri.sandbox-id': sb.id,
      'io.kubernetes.cri.sandbox-name': sb.config.metadata?.name ?? '',
      'io.kubernetes.cri.sandbox-namespace': sb.config.metadata?.namespace ?? '',
      'io.kubernetes.cri.sandbox-uid': sb.config.metadata?.uid ?? '',
    },
    linux: {
      resources: {
        devices: [{ allow: false, access: 'rwm' }],
        memory: res?.memoryLimitInBytes && res.memoryLimitInBytes !== '0' ? { limit: Number(res.memoryLimitInBytes) } : {},
        cpu: { shares: Number(res?.cpuShares ?? 2), ...(res?.cpuQuota && res.cpuQuota !== '0' ? { quota: Number(res.cpuQuota), period: Number(res.cpuPeriod || 100000) } : {}) },
      },
      cgroupsPath: `${sb.config.linux?.cgroupParent || 'kubepods-besteffort.slice'}:cri-containerd:${c.id}`,
      namespaces: namespaces(sb, pid, c),
      maskedPaths: sc?.privileged
        ? []
        : ['/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list', '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware'],
      readonlyPaths: sc?.privileged ? [] : ['/proc/asound', '/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'],
    },
  };
}

/** ContainerStatus(verbose).info.info. */
export function containerInfo(c: Container, sb: Sandbox, def: ImageDef | undefined, pid: number): Record<string, string> {
  return {
    info: JSON.stringify({
      sandboxID: c.sandboxId,
      pid: c.state === 'CONTAINER_RUNNING' ? pid : 0,
      removing: false,
      snapshotKey: c.id,
      snapshotter: 'overlayfs',
      runtimeType: 'io.containerd.runc.v2',
      runtimeOptions: { systemd_cgroup: true },
      recovered: c.recovered ?? false,
      config: c.config,
      runtimeSpec: containerRuntimeSpec(c, sb, def, pid),
    }),
  };
}

/** PodSandboxStatus(verbose).info.info, without the network part (convert.ts adds it). */
export function sandboxInfoJson(sb: Sandbox, pid: number, pauseImage: string): Record<string, unknown> {
  const ready = sb.state === 'SANDBOX_READY';
  return {
    pid: ready ? pid : 0,
    processStatus: ready ? 'running' : 'deleted',
    netNamespaceClosed: !ready,
    image: pauseImage,
    snapshotKey: sb.id,
    snapshotter: 'overlayfs',
    runtimeHandler: sb.runtimeHandler || 'runc',
    runtimeType: 'io.containerd.runc.v2',
    runtimeOptions: { systemd_cgroup: true },
    config: sb.config,
    runtimeSpec: {
      ociVersion: '1.1.0',
      process: { user: { uid: 65535, gid: 65535 }, args: ['/pause'], env: [`PATH=${PATH}`], cwd: '/', noNewPrivileges: true, oomScoreAdj: -998 },
      root: { path: 'rootfs', readonly: true },
      hostname: sb.config.hostname,
      annotations: {
        'io.kubernetes.cri.container-type': 'sandbox',
        'io.kubernetes.cri.sandbox-id': sb.id,
        'io.kubernetes.cri.sandbox-name': sb.config.metadata?.name ?? '',
        'io.kubernetes.cri.sandbox-namespace': sb.config.metadata?.namespace ?? '',
        'io.kubernetes.cri.sandbox-uid': sb.config.metadata?.uid ?? '',
        'io.kubernetes.cri.sandbox-log-directory': sb.config.logDirectory,
      },
      linux: { cgroupsPath: `${sb.config.linux?.cgroupParent || 'kubepods-besteffort.slice'}:cri-containerd:${sb.id}`, namespaces: namespaces(sb, pid) },
    },
  };
}
