// What the kubelet last heard from the container runtime (upstream
// pkg/kubelet/runtime.go runtimeState, filled by kubelet.go's
// updateRuntimeUp): its name and version, whether it and its network are
// ready, and when it last said it was. Node readiness and pod syncs read it.

import type { Clock } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';
import { CriClientError, type RuntimeCondition, type RuntimeService } from './kuberuntime/cri.js';
import type { RuntimeHealthInput } from './nodestatus/setters.js';

export interface NotReady {
  reason: string;
  message: string;
}

/** How long without a good Status answer before the runtime counts as down (upstream: 30 s). */
const BASE_RUNTIME_SYNC_THRESHOLD_MS = 30_000;

/** The runtime's Status conditions read as upstream does: RuntimeReady must be present and true; NetworkReady false only if present. */
export function readiness(conds: readonly RuntimeCondition[]): { runtime?: NotReady; network?: NotReady } {
  const rr = conds.find((c) => c.type === 'RuntimeReady');
  const nr = conds.find((c) => c.type === 'NetworkReady');
  const runtime = !rr ? { reason: 'RuntimeReadyMissing', message: 'runtime did not report RuntimeReady' } : !rr.status ? { reason: rr.reason, message: rr.message } : undefined;
  const network = nr && !nr.status ? { reason: nr.reason, message: nr.message } : undefined;
  return { ...(runtime ? { runtime } : {}), ...(network ? { network } : {}) };
}

export class RuntimeState {
  name = 'containerd';
  version = '';
  private lastBaseRuntimeSync = 0;
  private runtimeNotReady: NotReady | undefined;
  /** Set while the runtime's network is not ready: only host-network pods may start. */
  networkNotReady: NotReady | undefined;

  constructor(
    private readonly rt: Pick<RuntimeService, 'version' | 'status'>,
    private readonly clock: Clock,
    private readonly log: Logger,
    /** Kubelet time runs this many times faster: the runtime is down sooner. */
    private readonly timeScale = 1,
  ) {}

  /** Asks the runtime for its version (once) and status (upstream updateRuntimeUp). */
  async update(): Promise<void> {
    try {
      if (!this.version) {
        const v = await this.rt.version();
        this.name = v.runtimeName || 'containerd';
        this.version = v.runtimeVersion;
      }
      const r = readiness(await this.rt.status());
      this.runtimeNotReady = r.runtime;
      this.networkNotReady = r.network;
      if (!this.runtimeNotReady) this.lastBaseRuntimeSync = this.clock.now();
    } catch (err) {
      // Upstream updateRuntimeUp's ErrorS, the error as grpc-go prints it (what `journalctl -u kubelet` shows when containerd is down).
      this.log.error('Container runtime sanity check failed', { err: CriClientError.isInstance(err) ? err.grpcText : (err as Error).message });
    }
  }

  /** `containerd://1.7.x`, or '' before the runtime answered Version. */
  get versionText(): string {
    return this.version ? `${this.name}://${this.version}` : '';
  }

  /** The runtime's part of node readiness, with the PLEG's error if it is unhealthy. */
  health(plegError: string | undefined): RuntimeHealthInput {
    return {
      lastBaseRuntimeSync: this.lastBaseRuntimeSync,
      baseRuntimeSyncThresholdMs: BASE_RUNTIME_SYNC_THRESHOLD_MS / this.timeScale,
      ...(this.runtimeNotReady ? { runtimeNotReady: this.runtimeNotReady } : {}),
      ...(this.networkNotReady ? { networkNotReady: this.networkNotReady } : {}),
      ...(plegError !== undefined ? { plegError } : {}),
      now: this.clock.now(),
    };
  }
}
