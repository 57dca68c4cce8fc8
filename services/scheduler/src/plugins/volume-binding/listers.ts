// The storage listers VolumeBinding reads, over the scheduler's informers,
// and the wait for claims to be bound: re-checked on every claim event
// (upstream's BindPodVolumes polls the PVC cache; an informer handler does
// the same without a timer per pod).

import { ANN_BIND_COMPLETED, type PersistentVolume, type PersistentVolumeClaim, type StorageClass } from '@kubelab/api';
import type { SharedIndexInformer } from '@kubelab/client';
import type { VolumeListers } from '../../framework/handle.js';

interface Waiter {
  claims: readonly string[];
  resolve(): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/** A claim the PV controller has bound (its binding completed, its volume named). */
export function isClaimBound(c: PersistentVolumeClaim | undefined): boolean {
  return !!c?.spec?.volumeName && c.metadata.annotations?.[ANN_BIND_COMPLETED] !== undefined;
}

export function informerVolumeListers(claims: SharedIndexInformer<PersistentVolumeClaim>, volumes: SharedIndexInformer<PersistentVolume>, classes: SharedIndexInformer<StorageClass>): VolumeListers {
  const claimLister = claims.lister();
  const waiters = new Set<Waiter>();
  const get = (key: string) => claimLister.namespace(key.slice(0, key.indexOf('/'))).get(key.slice(key.indexOf('/') + 1));
  const check = () => {
    for (const w of waiters) {
      if (!w.claims.every((k) => isClaimBound(get(k)))) continue;
      waiters.delete(w);
      clearTimeout(w.timer);
      w.resolve();
    }
  };
  claims.addEventHandler({ onAdd: check, onUpdate: check });
  return {
    claim: (ns, name) => claimLister.namespace(ns).get(name),
    volumes: () => volumes.lister().list(),
    storageClass: (name) => classes.lister().get(name),
    waitForBound(keys, timeoutMs) {
      if (keys.every((k) => isClaimBound(get(k)))) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const w: Waiter = {
          claims: keys,
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(w);
            reject(new Error(`binding volumes: timed out waiting for the condition`));
          }, timeoutMs),
        };
        w.timer.unref();
        waiters.add(w);
      });
    },
  };
}
