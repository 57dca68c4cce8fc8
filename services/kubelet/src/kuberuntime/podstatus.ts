// The runtime's view of one pod (upstream kubecontainer.PodStatus): its
// sandboxes and every container instance the runtime still has, newest
// first, rebuilt purely from CRI labels and annotations so it survives a
// kubelet restart.

import {
  ANNOTATION_CONTAINER_HASH,
  ANNOTATION_RESTART_COUNT,
  LABEL_CONTAINER_NAME,
  LABEL_POD_NAME,
  LABEL_POD_NAMESPACE,
  LABEL_POD_UID,
  isNotFound,
  type ContainerStatus as CRIContainerStatus,
  type RuntimeService,
} from './cri.js';

export type KubeContainerState = 'created' | 'running' | 'exited' | 'unknown';

export interface RuntimeContainerStatus {
  id: string;
  name: string;
  state: KubeContainerState;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  reason: string;
  message: string;
  image: string;
  imageRef: string;
  restartCount: number;
  hash: string;
  logPath: string;
}

export interface SandboxStatus {
  id: string;
  ready: boolean;
  ip: string;
  additionalIps: string[];
  createdAt: number;
  attempt: number;
}

export interface RuntimePodStatus {
  uid: string;
  name: string;
  namespace: string;
  /** Newest first. */
  sandboxes: SandboxStatus[];
  /** Newest first. */
  containers: RuntimeContainerStatus[];
}

export function emptyPodStatus(uid: string, name = '', namespace = ''): RuntimePodStatus {
  return { uid, name, namespace, sandboxes: [], containers: [] };
}

const STATE: Record<string, KubeContainerState> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
};

export function toRuntimeContainerStatus(s: CRIContainerStatus): RuntimeContainerStatus {
  return {
    id: s.id,
    name: s.labels[LABEL_CONTAINER_NAME] ?? s.metadata.name,
    state: STATE[s.state] ?? 'unknown',
    createdAt: s.createdAt,
    startedAt: s.startedAt,
    finishedAt: s.finishedAt,
    exitCode: s.exitCode,
    reason: s.reason,
    message: s.message,
    image: s.image,
    imageRef: s.imageRef,
    restartCount: Number(s.annotations[ANNOTATION_RESTART_COUNT] ?? s.metadata.attempt ?? 0) || 0,
    hash: s.annotations[ANNOTATION_CONTAINER_HASH] ?? '',
    logPath: s.logPath,
  };
}

/** The newest status of the named container, if the runtime has one. */
export function findContainerStatus(status: RuntimePodStatus, name: string): RuntimeContainerStatus | undefined {
  return status.containers.find((c) => c.name === name);
}

/** Reads one pod's status from the runtime (upstream GetPodStatus). */
export async function getPodStatus(rt: RuntimeService, uid: string, name = '', namespace = ''): Promise<RuntimePodStatus> {
  const selector = { labelSelector: { [LABEL_POD_UID]: uid } };
  const [sandboxes, containers] = await Promise.all([rt.listPodSandbox(selector), rt.listContainers(selector)]);
  const out = emptyPodStatus(uid, name, namespace);
  for (const sb of sandboxes.sort((a, b) => b.createdAt - a.createdAt)) {
    let ip: string;
    let additionalIps: string[];
    try {
      const st = await rt.podSandboxStatus(sb.id);
      ip = st.network?.ip ?? '';
      additionalIps = st.network?.additionalIps ?? [];
    } catch (e) {
      if (!isNotFound(e)) throw e;
      continue;
    }
    out.sandboxes.push({ id: sb.id, ready: sb.state === 'SANDBOX_READY', ip, additionalIps, createdAt: sb.createdAt, attempt: sb.metadata.attempt });
    out.name ||= sb.labels[LABEL_POD_NAME] ?? sb.metadata.name;
    out.namespace ||= sb.labels[LABEL_POD_NAMESPACE] ?? sb.metadata.namespace;
  }
  const statuses: RuntimeContainerStatus[] = [];
  await Promise.all(
    containers.map(async (c) => {
      try {
        statuses.push(toRuntimeContainerStatus(await rt.containerStatus(c.id)));
      } catch (e) {
        // Removed between list and status: as if the list had not seen it.
        if (!isNotFound(e)) throw e;
      }
    }),
  );
  out.containers = statuses.sort((a, b) => b.createdAt - a.createdAt || b.restartCount - a.restartCount);
  return out;
}
