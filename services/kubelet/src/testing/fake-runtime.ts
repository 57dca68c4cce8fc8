// An in-memory CRI runtime for kubelet unit tests (upstream
// cri-api/pkg/apis/testing/fake_runtime_service.go and
// fake_image_service.go): sandboxes, containers and images held in maps,
// every call logged by RPC name, failures injected per RPC, calls held or
// failed by per-RPC hooks, and (opt-in) traced views as the remote runtime's.

import type { Clock } from '@kubelab/client';
import type { Context } from '@kubelab/tracing';
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
  type Mount,
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
  | 'ReopenContainerLog'
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

/** Runs when rpc is called, after it is logged and before the fake answers: throw to fail the call, await to hold it. */
export type CallHook = (what: string) => void | Promise<void>;

export interface FakeRuntimeOptions {
  /** Offer withTraceContext, as the remote runtime does (absent: the runtime has no traced views). */
  traced?: boolean;
}

const matches = (labels: Record<string, string>, selector: Record<string, string> | undefined) => Object.entries(selector ?? {}).every(([k, v]) => labels[k] === v);

export class FakeRuntimeService implements RuntimeService {
  /** Every call: `<Rpc> <what it names>` (a pod as namespace/name, a container by name, an image by reference). */
  readonly calls: string[] = [];
  readonly sandboxes = new Map<string, FakeSandbox>();
  readonly containers = new Map<string, ContainerStatus & { podSandboxId: string }>();
  /** The mounts each container was created with (host path → container path), by container ID. */
  readonly mounts = new Map<string, Mount[]>();
  readonly images = new Map<string, Image>();
  conditions: RuntimeCondition[] = [
    { type: 'RuntimeReady', status: true, reason: '', message: '' },
    { type: 'NetworkReady', status: true, reason: '', message: '' },
  ];
  /** Exit codes of ExecSync by command line (`cmd.join(' ')`); any other command exits 0. */
  readonly execExitCodes = new Map<string, number>();
  /** Per call: the trace context of the view it was made through (undefined: the runtime itself). */
  readonly callContexts: (Context | undefined)[] = [];
  private readonly failures = new Map<Rpc, Error>();
  private readonly hooks = new Map<Rpc, CallHook>();
  // An object, so traced views (which inherit from this fake) number into the same sequence.
  private readonly ids = { seq: 0 };
  private readonly traceContext: Context | undefined;
  readonly withTraceContext?: (ctx: Context) => RuntimeService;

  constructor(
    private readonly clock: Clock,
    opts: FakeRuntimeOptions = {},
  ) {
    // A view is this fake with its own trace context: calls through it change the same sandboxes and containers and are logged with ctx.
    if (opts.traced) this.withTraceContext = (ctx) => Object.create(this, { traceContext: { value: ctx } }) as FakeRuntimeService;
  }

  /** The next call of rpc fails with err (once). */
  failNext(rpc: Rpc, err: Error = new CriClientError('Unknown', `injected ${rpc} failure`)): void {
    this.failures.set(rpc, err);
  }

  /** Every call of rpc runs hook (replacing an earlier one); undefined removes it. */
  onCall(rpc: Rpc, hook: CallHook | undefined): void {
    if (hook) this.hooks.set(rpc, hook);
    else this.hooks.delete(rpc);
  }

  /** The RPCs called, in order, without what they named. */
  rpcs(): Rpc[] {
    return this.calls.map((c) => c.slice(0, c.indexOf(' ')) as Rpc);
  }

  /** The calls that change something, in order. */
  changes(): string[] {
    return this.calls.filter((c) => !READS.has(c.slice(0, c.indexOf(' ')) as Rpc));
  }

  /** An image the node already has. */
  addImage(ref: string, size = 1000): void {
    this.images.set(ref, { id: `sha256:${ref}`, repoTags: [ref], repoDigests: [], size });
  }

  /** A running container's process ends with exitCode. */
  exitContainer(name: string, exitCode: number): void {
    for (const c of this.containers.values()) {
      if (c.metadata.name !== name || c.state !== 'CONTAINER_RUNNING') continue;
      Object.assign(c, { state: 'CONTAINER_EXITED' satisfies ContainerState, exitCode, finishedAt: this.clock.now(), reason: exitCode === 0 ? 'Completed' : 'Error' });
    }
  }

  private call(rpc: Rpc, what: string): void | Promise<void> {
    this.calls.push(`${rpc} ${what}`);
    this.callContexts.push(this.traceContext);
    const err = this.failures.get(rpc);
    if (err) {
      this.failures.delete(rpc);
      throw err;
    }
    return this.hooks.get(rpc)?.(what);
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
    await this.call('Version', '');
    return { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v1.7.24-fake', runtimeApiVersion: 'v1' };
  }

  async status(): Promise<RuntimeCondition[]> {
    await this.call('Status', '');
    return this.conditions.map((c) => ({ ...c }));
  }

  async updateRuntimeConfig(podCidr: string): Promise<void> {
    await this.call('UpdateRuntimeConfig', podCidr);
  }

  async runPodSandbox(config: PodSandboxConfig): Promise<string> {
    await this.call('RunPodSandbox', `${config.metadata.namespace}/${config.metadata.name}`);
    const n = ++this.ids.seq;
    const id = `sandbox-${n}`;
    this.sandboxes.set(id, {
      sandbox: { id, metadata: { ...config.metadata }, state: 'SANDBOX_READY', createdAt: this.clock.now() + n, labels: { ...config.labels }, annotations: { ...config.annotations } },
      ip: `10.244.0.${n}`,
    });
    return id;
  }

  async stopPodSandbox(id: string): Promise<void> {
    const s = this.sandboxOf(id);
    await this.call('StopPodSandbox', this.podName(s.sandbox));
    s.sandbox.state = 'SANDBOX_NOTREADY';
  }

  async removePodSandbox(id: string): Promise<void> {
    const s = this.sandboxOf(id);
    await this.call('RemovePodSandbox', this.podName(s.sandbox));
    this.sandboxes.delete(id);
  }

  async podSandboxStatus(id: string): Promise<PodSandboxStatus> {
    await this.call('PodSandboxStatus', id);
    const s = this.sandboxOf(id);
    return { ...s.sandbox, network: { ip: s.sandbox.state === 'SANDBOX_READY' ? s.ip : '', additionalIps: [] } };
  }

  async listPodSandbox(filter?: { labelSelector?: Record<string, string> }): Promise<PodSandbox[]> {
    await this.call('ListPodSandbox', '');
    return [...this.sandboxes.values()]
      .map((s) => s.sandbox)
      .filter((s) => matches(s.labels, filter?.labelSelector))
      .map((s) => ({ ...s }));
  }

  async createContainer(podSandboxId: string, config: ContainerConfig): Promise<string> {
    await this.call('CreateContainer', config.metadata.name);
    this.sandboxOf(podSandboxId);
    const n = ++this.ids.seq;
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
    this.mounts.set(
      id,
      (config.mounts ?? []).map((m) => ({ ...m })),
    );
    return id;
  }

  async startContainer(id: string): Promise<void> {
    const c = this.containerOf(id);
    await this.call('StartContainer', c.metadata.name);
    Object.assign(c, { state: 'CONTAINER_RUNNING' satisfies ContainerState, startedAt: this.clock.now() });
  }

  async stopContainer(id: string, _timeout: number): Promise<void> {
    const c = this.containerOf(id);
    await this.call('StopContainer', c.metadata.name);
    if (c.state === 'CONTAINER_EXITED') return;
    Object.assign(c, { state: 'CONTAINER_EXITED' satisfies ContainerState, exitCode: 137, reason: 'Error', finishedAt: this.clock.now() });
  }

  async removeContainer(id: string): Promise<void> {
    const c = this.containerOf(id);
    await this.call('RemoveContainer', c.metadata.name);
    this.containers.delete(id);
  }

  async listContainers(filter?: { podSandboxId?: string; labelSelector?: Record<string, string> }): Promise<Container[]> {
    await this.call('ListContainers', '');
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
    await this.call('ContainerStatus', id);
    const { podSandboxId: _sandbox, ...status } = this.containerOf(id);
    return { ...status, labels: { ...status.labels }, annotations: { ...status.annotations } };
  }

  async reopenContainerLog(id: string): Promise<void> {
    await this.call('ReopenContainerLog', id);
    if (this.containerOf(id).state !== 'CONTAINER_RUNNING') throw new Error('container is not running');
  }

  async execSync(id: string, cmd: string[], _timeout?: number): Promise<ExecSyncResult> {
    await this.call('ExecSync', `${this.containerOf(id).labels[LABEL_CONTAINER_NAME]} ${cmd.join(' ')}`);
    return { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: this.execExitCodes.get(cmd.join(' ')) ?? 0 };
  }

  async listImages(): Promise<Image[]> {
    await this.call('ListImages', '');
    return [...this.images.values()];
  }

  async imageStatus(image: string): Promise<Image | undefined> {
    await this.call('ImageStatus', image);
    return this.images.get(image);
  }

  async pullImage(image: string): Promise<string> {
    await this.call('PullImage', image);
    // A hook may have stored the image as the registry serves it.
    if (!this.images.has(image)) this.addImage(image);
    return this.images.get(image)!.id;
  }

  close(): void {}
}
