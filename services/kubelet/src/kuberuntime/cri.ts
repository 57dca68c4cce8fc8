// The kubelet's view of a CRI runtime (upstream: cri-api's internalapi
// RuntimeService/ImageManagerService). Shapes follow runtime.v1 with
// timestamps converted from int64 nanoseconds to milliseconds, so the rest of
// the kubelet never sees wire details and tests can use an in-memory fake.

import type { Context } from '@kubelab/tracing';
import type { LinuxContainerResources } from './resources.js';
import type { LinuxContainerSecurityContext, LinuxPodSandboxConfig } from './security-context.js';

export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
export type PodSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

export interface KeyValue {
  key: string;
  value: string;
}

export interface PodSandboxMetadata {
  name: string;
  uid: string;
  namespace: string;
  attempt: number;
}

export interface PortMapping {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  containerPort: number;
  hostPort: number;
  hostIp: string;
}

export interface PodSandboxConfig {
  metadata: PodSandboxMetadata;
  hostname: string;
  /** runtime.v1 DNSConfig: the containers' /etc/resolv.conf (upstream GetPodDNS). */
  dnsConfig?: { servers: string[]; searches: string[]; options: string[] };
  logDirectory: string;
  portMappings: PortMapping[];
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** runtime.v1 LinuxPodSandboxConfig: the pod's security context and sysctls (security-context.ts). */
  linux?: LinuxPodSandboxConfig;
}

export interface ContainerMetadata {
  name: string;
  attempt: number;
}

export interface Mount {
  containerPath: string;
  hostPath: string;
  readonly: boolean;
}

export interface ContainerConfig {
  metadata: ContainerMetadata;
  image: { image: string; userSpecifiedImage?: string };
  command: string[];
  args: string[];
  workingDir: string;
  envs: KeyValue[];
  /** Volumes: host path → container path (runtime.v1 Mount). */
  mounts?: Mount[];
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** Relative to the sandbox's logDirectory: `<container>/<restartCount>.log`. */
  logPath: string;
  stdin: boolean;
  /** Close the container's stdin when the first attached client closes it (kubectl run -i). */
  stdinOnce?: boolean;
  tty: boolean;
  /** runtime.v1 LinuxContainerConfig: the cgroup settings (resources.ts). */
  linux?: { resources: LinuxContainerResources; securityContext?: LinuxContainerSecurityContext };
}

export interface PodSandbox {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  createdAt: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface PodSandboxStatus extends PodSandbox {
  network?: { ip: string; additionalIps: string[] };
}

export interface Container {
  id: string;
  podSandboxId: string;
  metadata: ContainerMetadata;
  image: string;
  imageRef: string;
  state: ContainerState;
  createdAt: number;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface ContainerStatus {
  id: string;
  metadata: ContainerMetadata;
  state: ContainerState;
  /** Milliseconds since the epoch; 0 when not reached. */
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  image: string;
  imageRef: string;
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  logPath: string;
}

/** ContainerStats of one running container (runtime.v1 ContainerStats, the fields the kubelet reads). */
export interface ContainerStats {
  id: string;
  labels: Record<string, string>;
  workingSetBytes: number;
  /** The writable layer's usage. */
  writableLayerBytes: number;
  inodesUsed: number;
  /** Cumulative CPU time and the rate over the runtime's last sample window (absent from fakes that do not simulate CPU). */
  cpu?: { usageCoreNanoSeconds: number; usageNanoCores: number };
  memoryUsageBytes?: number;
  rssBytes?: number;
}

export interface ExecSyncResult {
  stdout: Buffer;
  stderr: Buffer;
  exitCode: number;
}

/** runtime.v1 ExecRequest: the command and which streams it gets. */
export interface ExecRequest {
  containerId: string;
  cmd: string[];
  tty: boolean;
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
}

/** runtime.v1 AttachRequest: which streams of the container's main process; tty must match the container's. */
export type AttachRequest = Omit<ExecRequest, 'cmd'>;

export interface RuntimeCondition {
  type: string;
  status: boolean;
  reason: string;
  message: string;
}

export interface VersionInfo {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface Image {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: number;
  /** The image config's user: a uid, or `username` when it is a name. */
  uid?: number;
  username?: string;
}

export interface AuthConfig {
  username?: string;
  password?: string;
  auth?: string;
  serverAddress?: string;
}

export type ContainerEventType = 'CONTAINER_CREATED_EVENT' | 'CONTAINER_STARTED_EVENT' | 'CONTAINER_STOPPED_EVENT' | 'CONTAINER_DELETED_EVENT';

export interface ContainerEvent {
  containerId: string;
  type: ContainerEventType;
  podUid?: string;
}

/** The runtime calls the kubelet makes (subset of runtime.v1 RuntimeService + ImageService). */
export interface RuntimeService {
  version(): Promise<VersionInfo>;
  status(): Promise<RuntimeCondition[]>;
  updateRuntimeConfig(podCidr: string): Promise<void>;

  runPodSandbox(config: PodSandboxConfig): Promise<string>;
  stopPodSandbox(id: string): Promise<void>;
  removePodSandbox(id: string): Promise<void>;
  podSandboxStatus(id: string): Promise<PodSandboxStatus>;
  listPodSandbox(filter?: { labelSelector?: Record<string, string> }): Promise<PodSandbox[]>;

  createContainer(podSandboxId: string, config: ContainerConfig, sandboxConfig: PodSandboxConfig): Promise<string>;
  startContainer(id: string): Promise<void>;
  /** timeout: grace period in seconds before SIGKILL. */
  stopContainer(id: string, timeout: number): Promise<void>;
  removeContainer(id: string): Promise<void>;
  listContainers(filter?: { podSandboxId?: string; labelSelector?: Record<string, string> }): Promise<Container[]>;
  containerStatus(id: string): Promise<ContainerStatus>;
  /** CRI ReopenContainerLog: the runtime closes the container's log file and opens its path anew (after log rotation). */
  reopenContainerLog(id: string): Promise<void>;
  /** timeout in seconds (0 = none). */
  execSync(id: string, cmd: string[], timeout: number): Promise<ExecSyncResult>;
  /** CRI Exec: the one-time URL of the runtime's streaming server for this command (optional: fakes may leave it out). */
  exec?(req: ExecRequest): Promise<string>;
  /** CRI Attach: the one-time URL for attaching to the container's main process (optional like exec). */
  attach?(req: AttachRequest): Promise<string>;
  /** CRI PortForward: the one-time URL for forwarding the sandbox's ports (optional like exec). */
  portForward?(req: { podSandboxId: string; port: number[] }): Promise<string>;

  /** ListContainerStats (the eviction manager's usage source); optional so fakes may leave it out. */
  listContainerStats?(): Promise<ContainerStats[]>;

  /** Streams container lifecycle events; returns a stop function. Optional in CRI. */
  getContainerEvents?(onEvent: (e: ContainerEvent) => void, onEnd: (err?: Error) => void): () => void;

  listImages(): Promise<Image[]>;
  imageStatus(image: string): Promise<Image | undefined>;
  pullImage(image: string, auth?: AuthConfig, sandboxConfig?: PodSandboxConfig): Promise<string>;

  /**
   * The same runtime with every call a child of ctx (a pod sync's span): the
   * CRI client's tracing interceptor reads it from the call options, so the
   * kubelet needs no async context manager (upstream passes ctx to each CRI
   * call). Optional: fakes and untraced runtimes leave it out.
   */
  withTraceContext?(ctx: Context): RuntimeService;

  close(): void;
}

/**
 * A failed CRI call as the kubelet's CRI client sees it: the gRPC code by Go's
 * name and the runtime's message (upstream gets a grpc status error back from
 * cri-client). Not the runtime's own error (containerd's RuntimeError).
 */
const CRI_CLIENT_ERROR = Symbol.for('kubelab.kubelet.CriClientError');

export class CriClientError extends Error {
  readonly [CRI_CLIENT_ERROR] = true;
  override name = 'CriClientError';
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
  static isInstance(e: unknown): e is CriClientError {
    return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[CRI_CLIENT_ERROR] === true;
  }
  /** `rpc error: code = NotFound desc = ...`, as Go's grpc status prints. */
  get grpcText(): string {
    return `rpc error: code = ${this.code} desc = ${this.message}`;
  }
}

export function isNotFound(e: unknown): boolean {
  return CriClientError.isInstance(e) && e.code === 'NotFound';
}

// Labels and annotations the kubelet puts on sandboxes and containers
// (upstream kuberuntime labels.go), so state can be rebuilt after a restart.
export const LABEL_POD_NAME = 'io.kubernetes.pod.name';
export const LABEL_POD_NAMESPACE = 'io.kubernetes.pod.namespace';
export const LABEL_POD_UID = 'io.kubernetes.pod.uid';
export const LABEL_CONTAINER_NAME = 'io.kubernetes.container.name';
export const LABEL_CONTAINER_TYPE = 'io.kubernetes.container.type';
export const ANNOTATION_CONTAINER_HASH = 'io.kubernetes.container.hash';
export const ANNOTATION_RESTART_COUNT = 'io.kubernetes.container.restartCount';
export const ANNOTATION_TERMINATION_MESSAGE_PATH = 'io.kubernetes.container.terminationMessagePath';
export const ANNOTATION_POD_TERMINATION_GRACE_PERIOD = 'io.kubernetes.pod.terminationGracePeriod';
export const ANNOTATION_PRESTOP_HANDLER = 'io.kubernetes.container.preStopHandler';
export const ANNOTATION_CONTAINER_PORTS = 'io.kubernetes.container.ports';
