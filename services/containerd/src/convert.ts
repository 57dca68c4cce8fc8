// Runtime records → CRI messages (the only place that knows the wire shapes).

import { encodeSandboxNetwork, sandboxPortKey, type CriContainer, type CriContainerStats, type CriContainerStatus, type CriImage, type CriPodSandbox, type CriPodSandboxStatus } from '@kubelab/proto';
import type { StoredImage } from './images.js';
import type { Container, Runtime, Sandbox } from './runtime.js';
import { nowNanos } from './time.js';
import { sandboxInfoJson } from './verbose-info.js';

export function sandboxToProto(sb: Sandbox): CriPodSandbox {
  return {
    id: sb.id,
    metadata: sb.config.metadata,
    state: sb.state,
    createdAt: sb.createdAt,
    labels: sb.config.labels,
    annotations: sb.config.annotations,
    runtimeHandler: sb.runtimeHandler,
  };
}

export function sandboxStatusToProto(sb: Sandbox): CriPodSandboxStatus {
  const ns = sb.config.linux?.securityContext?.namespaceOptions;
  return {
    id: sb.id,
    metadata: sb.config.metadata,
    state: sb.state,
    createdAt: sb.createdAt,
    network: { ip: sb.state === 'SANDBOX_READY' ? sb.ip : '', additionalIps: [] },
    linux: { namespaces: { options: { network: ns?.network ?? 'POD', pid: ns?.pid ?? 'CONTAINER', ipc: ns?.ipc ?? 'POD', targetId: ns?.targetId ?? '' } } },
    labels: sb.config.labels,
    annotations: sb.config.annotations,
    runtimeHandler: sb.runtimeHandler,
  };
}

/** Verbose sandbox info: how this runtime wired the network (loopback port map or real pod IP). */
export function sandboxInfo(sb: Sandbox, mode: string, pid: number): Record<string, string> {
  return {
    info: JSON.stringify(sandboxInfoJson(sb, pid, 'registry.k8s.io/pause:3.10')),
    ...encodeSandboxNetwork({
      mode,
      podIP: sb.ip,
      note: mode === 'loopback' ? 'pod IP is simulated: container ports are served on loopback at the mapped addresses' : 'container ports are served on the pod IP',
      ports: Object.fromEntries(Object.entries(sb.ports).map(([p, a]) => [p.includes('/') ? p : sandboxPortKey(p), `${a.hostIp}:${a.hostPort}`])),
    }),
  };
}

/**
 * As containerd's ListContainers: the image as the kubelet gave it and, as
 * image_ref, the image ID it resolved to (containerd 1.7 leaves image_id unset).
 */
export function containerToProto(c: Container): CriContainer {
  return {
    id: c.id,
    podSandboxId: c.sandboxId,
    metadata: c.config.metadata,
    image: c.config.image,
    imageRef: c.imageId,
    state: c.state,
    createdAt: c.createdAt,
    labels: c.config.labels,
    annotations: c.config.annotations,
    imageId: '',
  };
}

/**
 * As containerd's ContainerStatus, which looks the image up at each call:
 * image is its first repo tag and image_ref its first repo digest (the
 * kubelet shows that as containerStatuses[].imageID); once the image is
 * removed, the config's image and the image ID. image_id stays unset as in
 * containerd 1.7, the version this runtime reports (2.x sets the image ID).
 */
export function containerStatusToProto(c: Container, img: StoredImage | undefined): CriContainerStatus {
  const tag = img?.repoTags[0];
  return {
    id: c.id,
    metadata: c.config.metadata,
    state: c.state,
    createdAt: c.createdAt,
    startedAt: c.startedAt,
    finishedAt: c.finishedAt,
    exitCode: c.exitCode,
    image: tag ? { image: tag, annotations: {}, userSpecifiedImage: '', runtimeHandler: '' } : c.config.image,
    imageRef: img?.repoDigests[0] ?? c.imageId,
    reason: c.reason,
    message: c.message,
    labels: c.config.labels,
    annotations: c.config.annotations,
    mounts: c.config.mounts,
    logPath: c.logPath,
    resources: c.resources ? { linux: c.resources } : null,
    imageId: '',
    user: { linux: { uid: String(c.identity?.uid ?? 0), gid: String(c.identity?.gid ?? 0), supplementalGroups: (c.identity?.groups ?? []).map(String) } },
  };
}

export function imageToProto(img: StoredImage): CriImage {
  return {
    id: img.id,
    repoTags: img.repoTags,
    repoDigests: img.repoDigests,
    size: String(img.def.size),
    // containerd: a numeric config User gives uid, a name gives username (and no uid).
    uid: img.def.username ? null : { value: String(img.def.uid) },
    username: img.def.username ?? '',
    spec: { image: img.id, annotations: {} },
    pinned: img.def.pinned ?? false,
  };
}

const u64 = (n: number | bigint) => ({ value: String(n) });

export async function containerStatsToProto(rt: Runtime, c: Container): Promise<CriContainerStats> {
  const u = await rt.usage(c);
  const ts = nowNanos().toString();
  const attributes = { id: c.id, metadata: c.config.metadata, labels: c.config.labels, annotations: c.config.annotations };
  if (!u)
    return {
      attributes,
      cpu: { timestamp: ts, usageCoreNanoSeconds: u64(0), usageNanoCores: u64(0) },
      memory: { timestamp: ts, workingSetBytes: u64(0), usageBytes: u64(0), rssBytes: u64(0), availableBytes: null, pageFaults: u64(0), majorPageFaults: u64(0) },
      writableLayer: { timestamp: ts, fsId: { mountpoint: '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs' }, usedBytes: u64(0), inodesUsed: u64(0) },
    };
  return {
    attributes,
    cpu: { timestamp: ts, usageCoreNanoSeconds: u64(u.cpuCoreNanos), usageNanoCores: u64(u.nanoCores) },
    memory: {
      timestamp: ts,
      workingSetBytes: u64(u.memoryBytes),
      usageBytes: u64(u.memoryBytes),
      rssBytes: u64(u.memoryBytes),
      availableBytes: u.limit > 0 ? u64(Math.max(0, u.limit - u.memoryBytes)) : null,
      pageFaults: u64(Math.round(u.memoryBytes / 4096)),
      majorPageFaults: u64(0),
    },
    writableLayer: { timestamp: ts, fsId: { mountpoint: '/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs' }, usedBytes: u64(u.fsBytes), inodesUsed: u64(0) },
  };
}
