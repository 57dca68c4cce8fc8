// An in-memory CRI runtime for kubelet unit tests (upstream
// cri-api/pkg/apis/testing/fake_runtime_service.go and
// fake_image_service.go): sandboxes, containers and images held in maps,
// every call logged by RPC name, failures injected per RPC.

import type { Clock } from '@kubelab/client';
import {
  LABEL_CONTAINER_NAME,
  LABEL_POD_NAME,
  LABEL_POD_NAMESPACE,
  CriClientError,
  type Container,
  type ContainerConfig,
  type ContainerState,
  type ContainerStatus,
  type ExecSyncResult,
  type Image,
  type PodSandbox,
  type PodSandboxConfig,
  type PodSandboxStatus,
  type RuntimeCondition,
  type RuntimeService,
  type VersionInfo,
} from '../kuberuntime/cri.js';

export type Rpc =
  | 'Version'
  | 'Status'
  | 'UpdateRuntimeConfig'
  | 'RunPodSandbox'
  | 'StopPodSandbox'
  | 'RemovePodSandbox'
  | 'PodSandboxStatus'
  | 'ListPodSandbox'
  | 'CreateContainer'
  | 'StartContainer'
  | 'StopContainer'
  | 'RemoveContainer'
  | 'ListContainers'
  | 'ContainerStatus'
  | 'ExecSync'
  | 'ListImages'
  | 'ImageStatus'
  | 'PullImage';

/** RPCs that only read: left out of `changes()`. */
const READS: ReadonlySet<Rpc> = new Set(['Version', 'Status', 'PodSandboxStatus', 'ListPodSandbox', 'ListContainers', 'ContainerStatus', 'ListImages', 'ImageStatus']);

interface FakeSandbox {
  sandbox: PodSandbox;
  ip: string;
}

const matches = (labels: Record<string, string>, selector: Record<string, string> | undefined) => Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v);

export class FakeRuntimeService implements RuntimeService {
  /** Every call: `<Rpc> <what it names>` (a pod as namespace/name, a container by name, an image by reference). */
  readonly calls: string[] = [];
  readonly sandboxes = new Map<string, FakeSandbox>();
  readonly containers = new Map<string, ContainerStatus & { podSandboxId: string }>();
  readonly images = new Map<string, Image>();
  conditions: RuntimeCondition[] = [
    { type: 'RuntimeReady', status: true, reason: '', message: '' },
    { type: 'NetworkReady', status: true, reason: '', message: '' },
  ];
  private readonly failures = new Map<Rpc, Error>();
  private seq = 0;

  constructor(private readonly clock: Clock) {}

  /** The next call of rpc fails with err (once). */
  failNext(rpc: Rpc, err: Error = new CriClientError('Unknown', `injected ${rpc} failure`)): void {
    this.failures.set(rpc, err);
  }

  /** The calls that change something, in order. */
  changes(): string[] {
    return this.calls.filter((c) => !READS.has(c.slice(0, c.indexOf(' ')) as Rpc));
  }

  /** An image the node already has. */
  addImage(ref: string): void {
    this.images.set(ref, { id: `sha256:${ref}`, repoTags: [ref], repoDigests: [], size: 1000 });
  }

  /** A running container's process ends with exitCode. */
  exitContainer(name: string, exitCode: number): void {
    for (const c of this.containers.values()) {
      if (c.metadata.name !== name || c.state !== 'CONTAINER_RUNNING') continue;
      Object.assign(c, { state: 'CONTAINER_EXITED' satisfies ContainerState, exitCode, finishedAt: this.clock.now(), reason: exitCode === 0 ? 'Completed' : 'Error' });
    }
  }

  private call(rpc: Rpc, what: string): void {
    this.calls.push(`${rpc} ${what}`);
    const err = this.failures.get(rpc);
    if (err) {
      this.failures.delete(rpc);
      throw err;
    }
  }

  private sandboxOf(id: string): FakeSandbox {
    const s = this.sandboxes.get(id);
    if (!s) throw new CriClientError('NotFound', `an error occurred when try to find sandbox: not found ${id}`);
    return s;
  }

  private containerOf(id: string): ContainerStatus & { podSandboxId: string } {
    const c = this.containers.get(id);
    if (!c) throw new CriClientError('NotFound', `an error occurred when try to find container ${JSON.stringify(id)}: not found`);
    return c;
  }

  private podName(s: PodSandbox): string {
    return `${s.labels[LABEL_POD_NAMESPACE] ?? s.metadata.namespace}/${s.labels[LABEL_POD_NAME] ?? s.metadata.name}`;
  }

  async version(): Promise<VersionInfo> {
    this.call('Version', '');
    return { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.7.24-fake', runtimeApiVersion: 'v1' };
  }

  async status(): Promise<RuntimeCondition[]> {
    this.call('Status', '');
    return this.conditions.map((c) => ({ ...c }));
  }

  async updateRuntimeConfig(podCidr: string): Promise<void> {
    this.call('UpdateRuntimeConfig', podCidr);
  }

  async runPodSandbox(config: PodSandboxConfig): Promise<string> {
    this.call('RunPodSandbox', `${config.metadata.namespace}/${config.metadata.name}`);
    const n = ++this.seq;
    const id = `sandbox-${n}`;
    this.sandboxes.set(id, {
      sandbox: { id, metadata: { ...config.metadata }, state: 'SANDBOX_READY', createdAt: this.clock.now() + n, labels: { ...config.labels }, annotations: { ...config.annotations } },
      ip: `10.244.0.${n}`,
    });
    return id;
  }

  async stopPodSandbox(id: string): Promise<void> {
    const s = this.sandboxOf(id);
    this.call('StopPodSandbox', this.podName(s.sandbox));
    s.sandbox.state = 'SANDBOX_NOTREADY';
  }

  async removePodSandbox(id: string): Promise<void> {
    const s = this.sandboxOf(id);
    this.call('RemovePodSandbox', this.podName(s.sandbox));
    this.sandboxes.delete(id);
  }

  async podSandboxStatus(id: string): Promise<PodSandboxStatus> {
    this.call('PodSandboxStatus', id);
    const s = this.sandboxOf(id);
    return { ...s.sandbox, network: { ip: s.sandbox.state === 'SANDBOX_READY' ? s.ip : '', additionalIps: [] } };
  }

  async listPodSandbox(filter?: { labelSelector?: Record<string, string> }): Promise<PodSandbox[]> {
    this.call('ListPodSandbox', '');
    return [...this.sandboxes.values()]
      .map((s) => s.sandbox)
      .filter((s) => matches(s.labels, filter?.labelSelector))
      .map((s) => ({ ...s }));
  }

  async createContainer(podSandboxId: string, config: ContainerConfig): Promise<string> {
    this.call('CreateContainer', config.metadata.name);
    this.sandboxOf(podSandboxId);
    const n = ++this.seq;
    const id = `container-${n}`;
    this.containers.set(id, {
      id,
      podSandboxId,
      metadata: { ...config.metadata },
      state: 'CONTAINER_CREATED',
      // Later containers sort as newer even while the fake clock stands still.
      createdAt: this.clock.now() + n,
      startedAt: 0,
      finishedAt: 0,
      exitCode: 0,
      // As containerd reports them: the image as the pod names it, the resolved image ID.
      image: config.image.userSpecifiedImage || config.image.image,
      imageRef: config.image.image,
      reason: '',
      message: '',
      labels: { ...config.labels },
      annotations: { ...config.annotations },
      logPath: config.logPath,
    });
    return id;
  }

  async startContainer(id: string): Promise<void> {
    const c = this.containerOf(id);
    this.call('StartContainer', c.metadata.name);
    Object.assign(c, { state: 'CONTAINER_RUNNING' satisfies ContainerState, startedAt: this.clock.now() });
  }

  async stopContainer(id: string, _timeout: number): Promise<void> {
    const c = this.containerOf(id);
    this.call('StopContainer', c.metadata.name);
    if (c.state === 'CONTAINER_EXITED') return;
    Object.assign(c, { state: 'CONTAINER_EXITED' satisfies ContainerState, exitCode: 137, reason: 'Error', finishedAt: this.clock.now() });
  }

  async removeContainer(id: string): Promise<void> {
    const c = this.containerOf(id);
    this.call('RemoveContainer', c.metadata.name);
    this.containers.delete(id);
  }

  async listContainers(filter?: { podSandboxId?: string; labelSelector?: Record<string, string> }): Promise<Container[]> {
    this.call('ListContainers', '');
    return [...this.containers.values()]
      .filter((c) => (!filter?.podSandboxId || c.podSandboxId === filter.podSandboxId) && matches(c.labels, filter?.labelSelector))
      .map((c) => ({
        id: c.id,
        podSandboxId: c.podSandboxId,
        metadata: { ...c.metadata },
        image: c.image,
        imageRef: c.imageRef,
        state: c.state,
        createdAt: c.createdAt,
        labels: { ...c.labels },
        annotations: { ...c.annotations },
      }));
  }

  async containerStatus(id: string): Promise<ContainerStatus> {
    this.call('ContainerStatus', id);
    const { podSandboxId: _sandbox, ...status } = this.containerOf(id);
    return { ...status, labels: { ...status.labels }, annotations: { ...status.annotations } };
  }

  async execSync(id: string, cmd: string[]): Promise<ExecSyncResult> {
    this.call('ExecSync', `${this.containerOf(id).labels[LABEL_CONTAINER_NAME]} ${cmd.join(' ')}`);
    return { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: 0 };
  }

  async listImages(): Promise<Image[]> {
    this.call('ListImages', '');
    return [...this.images.values()];
  }

  async imageStatus(image: string): Promise<Image | undefined> {
    this.call('ImageStatus', image);
    return this.images.get(image);
  }

  async pullImage(image: string): Promise<string> {
    this.call('PullImage', image);
    this.addImage(image);
    return this.images.get(image)!.id;
  }

  close(): void {}
}
