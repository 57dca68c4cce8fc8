// The Priority admission plugin (upstream plugin/pkg/admission/priority):
// a new pod's priorityClassName becomes spec.priority and
// spec.preemptionPolicy (no name: the global default class, else 0), and
// only one PriorityClass may be the global default.

import { escapeKeyName, forbidden, lookupResource, storagePrefix, type Pod, type PriorityClass } from '@kubelab/api';
import type { WatchCache } from '../cache/watch-cache.js';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export interface PriorityClassSource {
  /** A class by name; may wait for this apiserver's own recent writes. */
  get(name: string): PriorityClass | undefined | Promise<PriorityClass | undefined>;
  list(): PriorityClass[];
}

/** getDefaultPriorityClass: the global default with the highest value. */
export function defaultPriorityClass(classes: readonly PriorityClass[]): PriorityClass | undefined {
  let best: PriorityClass | undefined;
  for (const pc of classes) if (pc.globalDefault && (!best || best.value < pc.value)) best = pc;
  return best;
}

/** What a created pod gets: its class's value and policy, or the error upstream answers. */
export function resolvePodPriority(pod: Pod, pc: PriorityClass | undefined, fallback: PriorityClass | undefined): string | undefined {
  const spec = (pod.spec ??= { containers: [] });
  let priority = 0;
  let policy: PriorityClass['preemptionPolicy'];
  if (!spec.priorityClassName) {
    // getDefaultPriority: the global default class, else 0 and PreemptLowerPriority.
    policy = fallback ? fallback.preemptionPolicy : 'PreemptLowerPriority';
    if (fallback) {
      spec.priorityClassName = fallback.metadata.name!;
      priority = fallback.value;
    }
  } else {
    if (!pc) return `no PriorityClass with name ${spec.priorityClassName} was found`;
    priority = pc.value;
    policy = pc.preemptionPolicy;
  }
  if (spec.priority !== undefined && spec.priority !== null && spec.priority !== priority) {
    return `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`;
  }
  spec.priority = priority;
  if (policy) {
    if (spec.preemptionPolicy && spec.preemptionPolicy !== policy) {
      return `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`;
    }
    spec.preemptionPolicy = policy;
  }
  return undefined;
}

const isPods = (a: AdmissionAttributes) => a.info.group === '' && a.info.resource === 'pods' && !a.subresource;
const isClasses = (a: AdmissionAttributes) => a.info.group === 'scheduling.k8s.io' && a.info.resource === 'priorityclasses';

export function priorityAdmission(source: PriorityClassSource): AdmissionPlugin {
  const admitCreate = (a: AdmissionAttributes, pod: Pod, pc: PriorityClass | undefined): void => {
    const err = resolvePodPriority(pod, pc, defaultPriorityClass(source.list()));
    if (err) throw forbidden(a.info, a.name, err);
  };
  return {
    name: 'Priority',
    admit(a) {
      if (!isPods(a) || !a.object) return;
      const pod = a.object as unknown as Pod;
      pod.spec ??= { containers: [] };
      if (a.operation === 'UPDATE') {
        // The values set at create stay: validation refuses any other change to them.
        const old = (a.oldObject as unknown as Pod | undefined)?.spec;
        if ((pod.spec.priority === undefined || pod.spec.priority === null) && old?.priority !== undefined) pod.spec.priority = old.priority;
        if (!pod.spec.preemptionPolicy && old?.preemptionPolicy) pod.spec.preemptionPolicy = old.preemptionPolicy;
        return;
      }
      if (a.operation !== 'CREATE') return;
      const name = pod.spec.priorityClassName;
      const pc = name ? source.get(name) : undefined;
      if (pc instanceof Promise) return pc.then((found) => admitCreate(a, pod, found));
      admitCreate(a, pod, pc);
    },
    validate(a) {
      if (!isClasses(a) || !a.object || (a.operation !== 'CREATE' && a.operation !== 'UPDATE')) return;
      const pc = a.object as unknown as PriorityClass;
      if (!pc.globalDefault) return;
      const current = defaultPriorityClass(source.list());
      if (current && (a.operation === 'CREATE' || current.metadata.name !== pc.metadata.name)) {
        throw forbidden(a.info, a.name, `PriorityClass ${current.metadata.name} is already marked as default. Only one default can exist`);
      }
    },
  };
}

/** The classes as the watch cache holds them; a miss waits for this apiserver's own writes (read-your-writes) and looks again. */
export function priorityClassesFromCache(cache: WatchCache): PriorityClassSource {
  const prefix = storagePrefix(lookupResource('scheduling.k8s.io', 'v1', 'priorityclasses')!);
  const key = (name: string) => `${prefix}/${escapeKeyName(name)}`;
  return {
    get(name) {
      const hit = cache.get(key(name))?.obj as PriorityClass | undefined;
      if (hit) return hit;
      return cache.waitConsistent().then(() => cache.get(key(name))?.obj as PriorityClass | undefined);
    },
    list: () => cache.list(prefix).map((e) => e.obj as PriorityClass),
  };
}
