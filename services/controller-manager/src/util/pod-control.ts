// PodControl (pkg/controller/controller_utils.go RealPodControl): pods made
// from a controller's template with its controllerRef, and the events users
// read in `kubectl describe` (SuccessfulCreate/FailedCreate,
// SuccessfulDelete/FailedDelete).

import type { KubeObject, OwnerReference, Pod, PodTemplateSpec } from '@kubelab/api';
import type { Clientset, EventRecorder } from '@kubelab/client';
import { contextFromObject } from '@kubelab/tracing';
import { errText } from './controller.js';

/** GetPodFromTemplate: labels, annotations and spec from the template; name from `<prefix>-`. */
export function podFromTemplate(template: PodTemplateSpec | undefined, namespace: string, generateName: string, ref: OwnerReference): Pod {
  const t = structuredClone(template ?? {});
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName,
      namespace,
      ...(t.metadata?.labels ? { labels: t.metadata.labels } : {}),
      ...(t.metadata?.annotations ? { annotations: t.metadata.annotations } : {}),
      ...(t.metadata?.finalizers ? { finalizers: t.metadata.finalizers } : {}),
      ownerReferences: [ref],
    },
    spec: t.spec ?? { containers: [] },
  };
}

export class PodControl {
  constructor(
    private readonly cs: Clientset,
    private readonly recorder: EventRecorder,
  ) {}

  async createPod(pod: Pod, owner: KubeObject): Promise<Pod> {
    const ns = pod.metadata.namespace ?? owner.metadata.namespace ?? 'default';
    try {
      // The pod continues its owner's trace (the owner's `kubelab.io/traceparent`): one trace per pod start.
      const created = await this.cs.core.pods(ns).create(pod, { traceContext: contextFromObject(owner) });
      this.recorder.eventf(owner, 'Normal', 'SuccessfulCreate', 'Created pod: %v', created.metadata.name);
      return created;
    } catch (err) {
      this.recorder.eventf(owner, 'Warning', 'FailedCreate', 'Error creating: %v', errText(err));
      throw err;
    }
  }

  async deletePod(namespace: string, name: string, owner: KubeObject): Promise<void> {
    try {
      await this.cs.core.pods(namespace).delete(name);
      this.recorder.eventf(owner, 'Normal', 'SuccessfulDelete', 'Deleted pod: %v', name);
    } catch (err) {
      this.recorder.eventf(owner, 'Warning', 'FailedDelete', 'Error deleting: %v', errText(err));
      throw err;
    }
  }
}

/**
 * slowStartBatch: calls fn count times in batches of 1, 2, 4, ... so a
 * failing create (quota, admission) fails once, not hundreds of times.
 * Returns how many succeeded and the first error.
 */
export async function slowStartBatch(count: number, initialBatch: number, fn: () => Promise<void>): Promise<{ successes: number; error?: unknown }> {
  let remaining = count;
  let successes = 0;
  for (let batch = Math.min(remaining, initialBatch); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    successes += results.filter((r) => r.status === 'fulfilled').length;
    if (failed) return { successes, error: failed.reason };
    remaining -= batch;
  }
  return { successes };
}
