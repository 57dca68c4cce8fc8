// Ensures a container's image is present (upstream pkg/kubelet/images
// image_manager.go EnsureImageExists): pull policy decides whether to pull,
// failed pulls back off per (pod, image) 10 s doubling to 5 min, and every
// step is an event with upstream wording.

import type { Container, Pod, PullPolicy } from '@kubelab/api';
import { formatDuration } from '@kubelab/component-base';
import type { Backoff } from '../backoff.js';
import type { Clock } from '@kubelab/client';
import { Reason, containerRef, type Recorder } from '../events.js';
import { CriClientError, type AuthConfig, type Image, type PodSandboxConfig, type RuntimeService } from '../kuberuntime/cri.js';
import type { ImageUser } from '../kuberuntime/security-context.js';

/** A failure to make the image present; `reason` becomes the container's waiting reason. */
export class ImageError extends Error {
  override name = 'ImageError';
  constructor(
    readonly reason: 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull' | 'InvalidImageName',
    message: string,
  ) {
    super(message);
  }
}

/** The default pull policy for an image with no explicit one (upstream SetDefaults_Container). */
export function defaultPullPolicy(image: string): PullPolicy {
  const lastPart = image.split('/').pop() ?? image;
  const noDigest = !image.includes('@');
  const tag = lastPart.includes(':') ? lastPart.slice(lastPart.indexOf(':') + 1) : '';
  return noDigest && (tag === '' || tag === 'latest') ? 'Always' : 'IfNotPresent';
}

/** Whether to pull (upstream shouldPullImage). */
export function shouldPullImage(policy: PullPolicy, present: boolean): boolean {
  if (policy === 'Never') return false;
  return policy === 'Always' || !present;
}

/** Go's Duration text truncated to milliseconds: `1.234s`, `523ms`. */
export function pullDurationText(ms: number): string {
  return formatDuration(Math.floor(ms));
}

export interface EnsureResult {
  imageRef: string;
  /** The image config's user, as ImageStatus gives it (the runAsNonRoot check and the default user). */
  user: ImageUser;
}

const userOf = (i: Image | undefined): ImageUser => ({ ...(i?.uid !== undefined ? { uid: i.uid } : {}), ...(i?.username ? { username: i.username } : {}) });

export class ImageManager {
  constructor(
    private readonly rt: RuntimeService,
    private readonly backoff: Backoff,
    private readonly recorder: Recorder,
    private readonly clock: Clock,
  ) {}

  /** The same manager (shared pull back-off) pulling through `rt`, e.g. a traced sync's runtime view. */
  withRuntime(rt: RuntimeService): ImageManager {
    return new ImageManager(rt, this.backoff, this.recorder, this.clock);
  }

  async ensureImageExists(pod: Pod, container: Container, auth: AuthConfig[], sandboxConfig: PodSandboxConfig): Promise<EnsureResult> {
    const ref = containerRef(pod, container);
    const image = container.image ?? '';
    if (!image) throw new ImageError('InvalidImageName', `Failed to apply default image tag "": couldn't parse image name "": invalid reference format`);
    const policy = container.imagePullPolicy ?? defaultPullPolicy(image);
    const present = await this.rt.imageStatus(image);
    if (!shouldPullImage(policy, !!present)) {
      if (present) {
        this.recorder.event(ref, 'Normal', Reason.Pulled, `Container image "${image}" already present on machine`);
        return { imageRef: present.id, user: userOf(present) };
      }
      const msg = `Container image "${image}" is not present with pull policy of Never`;
      this.recorder.event(ref, 'Warning', Reason.ErrImageNeverPull, msg);
      throw new ImageError('ErrImageNeverPull', msg);
    }
    const key = `${pod.metadata.uid}_${image}`;
    if (this.backoff.isInBackOffSinceUpdate(key, this.clock.now())) {
      const msg = `Back-off pulling image "${image}"`;
      this.recorder.event(ref, 'Normal', Reason.BackOff, msg);
      throw new ImageError('ImagePullBackOff', msg);
    }
    this.recorder.event(ref, 'Normal', Reason.Pulling, `Pulling image "${image}"`);
    const start = this.clock.now();
    let imageRef: string;
    try {
      imageRef = await this.pullWithAuth(image, auth, sandboxConfig);
    } catch (e) {
      const text = CriClientError.isInstance(e) ? e.grpcText : (e as Error).message;
      this.recorder.event(ref, 'Warning', Reason.Failed, `Failed to pull image "${image}": ${text}`);
      this.backoff.next(key, this.clock.now());
      throw new ImageError('ErrImagePull', text);
    }
    this.backoff.reset(key);
    const took = pullDurationText(this.clock.now() - start);
    const status = await this.rt.imageStatus(image).catch(() => undefined);
    const size = status?.size ?? 0;
    this.recorder.event(ref, 'Normal', Reason.Pulled, `Successfully pulled image "${image}" in ${took} (${took} including waiting). Image size: ${size} bytes.`);
    return { imageRef, user: userOf(status) };
  }

  /** Tries each pull secret's credentials in turn, then anonymously (upstream keyring lookup). */
  private async pullWithAuth(image: string, auth: AuthConfig[], sandboxConfig: PodSandboxConfig): Promise<string> {
    let lastErr: unknown;
    for (const a of auth) {
      try {
        return await this.rt.pullImage(image, a, sandboxConfig);
      } catch (e) {
        lastErr = e;
      }
    }
    if (auth.length && lastErr) throw lastErr;
    return this.rt.pullImage(image, undefined, sandboxConfig);
  }
}

/** Registry credentials from kubernetes.io/dockerconfigjson secrets (imagePullSecrets). */
export function authFromDockerConfig(image: string, dockerConfigJson: string): AuthConfig[] {
  try {
    const cfg = JSON.parse(dockerConfigJson) as { auths?: Record<string, { username?: string; password?: string; auth?: string }> };
    const registry = registryOf(image);
    const out: AuthConfig[] = [];
    for (const [server, a] of Object.entries(cfg.auths ?? {})) {
      const host = server.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
      if (host === registry || (registry === 'docker.io' && /(^|\.)docker\.io$/.test(host))) {
        out.push({ serverAddress: server, ...(a.username ? { username: a.username } : {}), ...(a.password ? { password: a.password } : {}), ...(a.auth ? { auth: a.auth } : {}) });
      }
    }
    return out;
  } catch {
    return [];
  }
}

export function registryOf(image: string): string {
  const first = image.split('/')[0] ?? '';
  return image.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost') ? first : 'docker.io';
}
