// The kubelet's two watch-based object managers (upstream NewMainKubelet's
// configMapManager and secretManager under the Watch strategy) and the
// ObjectSource the volume plugins, env and image pulls read through.

import { podConfigMapNames, podSecretNames, type ConfigMap, type Pod, type Secret } from '@kubelab/api';
import { listWatchFromClient, type Clientset, type Clock, type ClientLogger } from '@kubelab/client';
import { apiObjectSource, type ObjectSource } from '../volumemanager/sources.js';
import { ObjectCache, ObjectManager, maxIdleTimeMs } from './watch-based-manager.js';

export interface ObjectManagersOptions {
  clientset: Clientset;
  clock: Clock;
  /** The kubelet's --sync-frequency: idle reflectors stop after five of it. */
  syncFrequencyMs: number;
  logger?: ClientLogger;
}

export class ObjectManagers {
  readonly configMaps: ObjectManager<ConfigMap>;
  readonly secrets: ObjectManager<Secret>;
  /** ConfigMaps and Secrets from the caches; claims and volumes read from the apiserver, as upstream's volume manager does. */
  readonly source: ObjectSource;

  constructor(o: ObjectManagersOptions) {
    const cs = o.clientset;
    const common = { clock: o.clock, maxIdleTimeMs: maxIdleTimeMs(o.syncFrequencyMs), ...(o.logger ? { logger: o.logger } : {}) };
    const byName = (name: string) => ({ fieldSelector: `metadata.name=${name}` });
    this.configMaps = new ObjectManager(
      new ObjectCache<ConfigMap>({ resource: 'configmap', listWatch: (ns, name) => listWatchFromClient(cs.core.configMaps(ns), byName(name)), ...common }),
      podConfigMapNames,
    );
    this.secrets = new ObjectManager(new ObjectCache<Secret>({ resource: 'secret', listWatch: (ns, name) => listWatchFromClient(cs.core.secrets(ns), byName(name)), ...common }), podSecretNames);
    this.source = {
      ...apiObjectSource(cs),
      configMap: (ns, name) => this.configMaps.get(ns, name),
      secret: (ns, name) => this.secrets.get(ns, name),
    };
  }

  /** Before a pod's volumes and containers are set up (upstream SyncPod's RegisterPod, unless its termination was requested). */
  registerPod(pod: Pod): void {
    this.configMaps.registerPod(pod);
    this.secrets.registerPod(pod);
  }

  /** Once the pod is terminated or gone (upstream SyncTerminatedPod's UnregisterPod). */
  unregisterPod(uid: string): void {
    this.configMaps.unregisterPod(uid);
    this.secrets.unregisterPod(uid);
  }

  /** UIDs of pods registered with either manager. */
  registeredPods(): Set<string> {
    return new Set([...this.configMaps.registeredPods(), ...this.secrets.registeredPods()]);
  }

  recycleIdle(): void {
    this.configMaps.cache.recycleIdle();
    this.secrets.cache.recycleIdle();
  }

  stop(): void {
    this.configMaps.cache.stop();
    this.secrets.cache.stop();
  }
}
