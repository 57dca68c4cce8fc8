// The volume manager (upstream pkg/kubelet/volumemanager): before a pod's
// containers start, every volume of the pod is set up (upstream's reconciler
// MountVolume + WaitForAttachAndMount, here one step of the pod sync). A
// failure is a `FailedMount` event and a retry with exponential back-off
// (500 ms doubling to 2m2s, upstream's operation executor); the pod waits in
// ContainerCreating. Volumes that follow their sources (configMap, secret,
// downwardAPI, projected) are set up again on every sync. When a pod is gone,
// its directory under <root-dir>/pods goes too.

import { readdirSync, rmSync } from 'node:fs';
import type { Container, Pod } from '@kubelab/api';
import { Backoff } from '../backoff.js';
import type { Clock } from '@kubelab/client';
import { podRef, type Recorder } from '../events.js';
import { makeMounts, type CriMount, type MountedVolume } from './mounts.js';
import { podDir, podsDir } from './paths.js';
import type { VolumeHost } from './plugin.js';
import { persistentVolumeClaimPlugin } from './persistentvolumeclaim.js';
import { defaultPlugins, type PluginRegistry } from './plugins.js';
import type { ObjectSource } from './sources.js';
import type { ServiceAccountTokenSource } from '../token/manager.js';

export const REASON_FAILED_MOUNT = 'FailedMount';

export interface VolumeManagerOptions {
  rootDir: string;
  sources: ObjectSource;
  /** Service account tokens for projected volumes (upstream's token manager). */
  tokens?: ServiceAccountTokenSource;
  recorder: Recorder;
  clock: Clock;
  /** Node allocatable for downward API resource values of containers without limits. */
  allocatable?: () => Record<string, string>;
  /** Compresses the mount retry back-off like the kubelet's other timers. */
  timeScale?: number;
  plugins?: PluginRegistry;
}

export interface MountResult {
  /** Volumes never set up yet; the pod's containers must not start while any remain. */
  unmounted: string[];
  /** When to sync again for a failed volume (ms since epoch). */
  retryAt?: number;
}

/** `MountVolume.SetUp failed for volume "cfg" : <error>` (upstream GenerateError). */
export function setUpFailedMessage(volume: string, err: string): string {
  return `MountVolume.SetUp failed for volume "${volume}" : ${err}`;
}

/** A pod UID usable as a single directory name (never `..` or a path). */
function safeUid(uid: string): boolean {
  return uid.length > 0 && uid !== '.' && uid !== '..' && !uid.includes('/') && !uid.includes('\0');
}

export class VolumeManager {
  private readonly host: VolumeHost;
  private readonly plugins: PluginRegistry;
  /** Volumes set up at least once, by pod UID (upstream actual state of world). */
  private readonly mounted = new Map<string, Set<string>>();
  private readonly backoff: Backoff;

  constructor(private readonly o: VolumeManagerOptions) {
    this.host = { rootDir: o.rootDir, sources: o.sources, allocatable: o.allocatable ?? (() => ({})), now: () => new Date(o.clock.now()), ...(o.tokens ? { tokens: o.tokens } : {}) };
    this.plugins = o.plugins ?? defaultPlugins();
    const scale = o.timeScale && o.timeScale > 0 ? o.timeScale : 1;
    this.backoff = new Backoff(500 / scale, 122_000 / scale, o.clock);
  }

  /**
   * Sets up the pod's volumes that need it; reports which are still missing.
   * `sources`: where this call reads ConfigMaps and Secrets (a traced sync's, whose reads join its trace).
   */
  async mountPod(pod: Pod, sources?: ObjectSource): Promise<MountResult> {
    const host = sources ? { ...this.host, sources } : this.host;
    const uid = pod.metadata.uid ?? '';
    if (!safeUid(uid)) return { unmounted: (pod.spec?.volumes ?? []).map((v) => v.name) };
    let done = this.mounted.get(uid);
    if (!done) this.mounted.set(uid, (done = new Set()));
    const result: MountResult = { unmounted: [] };
    for (const v of pod.spec?.volumes ?? []) {
      const key = `${uid}/${v.name}`;
      const now = this.o.clock.now();
      let plugin;
      try {
        plugin = this.plugins.find(v);
      } catch (e) {
        result.unmounted.push(v.name);
        this.fail(pod, v.name, key, (e as Error).message, now, result);
        continue;
      }
      if (done.has(v.name) && !plugin.requiresRemount) continue;
      if (this.backoff.isInBackOffSinceUpdate(key, now)) {
        if (!done.has(v.name)) result.unmounted.push(v.name);
        const at = this.backoff.retryAt(key, this.lastFailure.get(key) ?? now);
        result.retryAt = Math.min(result.retryAt ?? at, at);
        continue;
      }
      try {
        await plugin.setUp(host, pod, v);
        done.add(v.name);
        this.backoff.reset(key);
        this.lastFailure.delete(key);
      } catch (e) {
        // A volume that was set up before keeps serving its last files; only a first setup blocks the pod.
        if (!done.has(v.name)) result.unmounted.push(v.name);
        this.fail(pod, v.name, key, (e as Error).message, now, result);
      }
    }
    return result;
  }
  private readonly lastFailure = new Map<string, number>();

  private fail(pod: Pod, volume: string, key: string, message: string, now: number, result: MountResult): void {
    this.o.recorder.event(podRef(pod), 'Warning', REASON_FAILED_MOUNT, setUpFailedMessage(volume, message));
    this.backoff.next(key, now);
    this.lastFailure.set(key, now);
    const at = this.backoff.retryAt(key, now);
    result.retryAt = Math.min(result.retryAt ?? at, at);
  }

  /** The pod's volumes as containers see them (upstream GetMountedVolumesForPod). */
  mountedVolumes(pod: Pod): Map<string, MountedVolume> {
    const out = new Map<string, MountedVolume>();
    const done = this.mounted.get(pod.metadata.uid ?? '');
    for (const v of pod.spec?.volumes ?? []) {
      if (!done?.has(v.name)) continue;
      const plugin = this.plugins.find(v);
      // A claim mounted readOnly is read-only in every container (upstream: the PVC source's readOnly).
      out.set(v.name, { hostPath: plugin.path(this.host, pod, v), readOnly: plugin.readOnly || v.persistentVolumeClaim?.readOnly === true });
    }
    return out;
  }

  /** CRI mounts for one container; throws the CreateContainerConfigError text. */
  mountsFor(pod: Pod, c: Container, env: Map<string, string>): CriMount[] {
    if (!c.volumeMounts?.length) return [];
    return makeMounts(c, this.mountedVolumes(pod), env);
  }

  /** Tears down a pod's volumes and removes its directory (upstream cleanupOrphanedPodDirs). */
  cleanupPod(uid: string): void {
    this.mounted.delete(uid);
    persistentVolumeClaimPlugin.forget(uid);
    this.o.tokens?.deleteServiceAccountToken?.(uid);
    for (const k of [...this.lastFailure.keys()]) {
      if (k.startsWith(`${uid}/`)) {
        this.lastFailure.delete(k);
        this.backoff.reset(k);
      }
    }
    if (!safeUid(uid)) return;
    rmSync(podDir(this.o.rootDir, uid), { recursive: true, force: true });
  }

  /** Pod directories of pods that are neither wanted nor known to the runtime; removes them and returns their UIDs. */
  cleanupOrphans(keep: (uid: string) => boolean): string[] {
    let uids: string[];
    try {
      uids = readdirSync(podsDir(this.o.rootDir));
    } catch {
      return [];
    }
    const removed = uids.filter((uid) => !keep(uid));
    for (const uid of removed) this.cleanupPod(uid);
    return removed;
  }
}
