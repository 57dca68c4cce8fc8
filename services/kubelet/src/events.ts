// Event reasons the kubelet records (upstream pkg/kubelet/events) and the
// object reference an event names: the pod, narrowed to one container with
// fieldPath `spec.containers{app}` as upstream's GenerateContainerRef does.

import type { Container, ObjectReference, Pod } from '@kubelab/api';

export const Reason = {
  Created: 'Created',
  Started: 'Started',
  Failed: 'Failed',
  Killing: 'Killing',
  Preempting: 'Preempting',
  BackOff: 'BackOff',
  ExceededGracePeriod: 'ExceededGracePeriod',
  Pulling: 'Pulling',
  Pulled: 'Pulled',
  ErrImageNeverPull: 'ErrImageNeverPull',
  InspectFailed: 'InspectFailed',
  Unhealthy: 'Unhealthy',
  ProbeWarning: 'ProbeWarning',
  FailedSync: 'FailedSync',
  FailedPostStartHook: 'FailedPostStartHook',
  FailedPreStopHook: 'FailedPreStopHook',
  NodeReady: 'NodeReady',
  NodeNotReady: 'NodeNotReady',
  Starting: 'Starting',
  RegisteredNode: 'RegisteredNode',
  NodeHasSufficientMemory: 'NodeHasSufficientMemory',
  NodeHasNoDiskPressure: 'NodeHasNoDiskPressure',
  NodeHasSufficientPID: 'NodeHasSufficientPID',
  NodeAllocatableEnforced: 'NodeAllocatableEnforced',
  SandboxChanged: 'SandboxChanged',
  FailedCreatePodSandBox: 'FailedCreatePodSandBox',
  FailedKillPod: 'FailedKillPod',
} as const;

export type EventType = 'Normal' | 'Warning';

/** Where kubelet events go; the kubelet adapts the client's recorder to this. */
export interface Recorder {
  event(ref: ObjectReference, type: EventType, reason: string, message: string): void;
}

export const nullRecorder: Recorder = { event: () => {} };

export function podRef(pod: Pod): ObjectReference {
  return {
    kind: 'Pod',
    namespace: pod.metadata.namespace,
    name: pod.metadata.name,
    uid: pod.metadata.uid,
    apiVersion: 'v1',
    resourceVersion: pod.metadata.resourceVersion,
  };
}

export function containerRef(pod: Pod, container: Container | string): ObjectReference {
  const name = typeof container === 'string' ? container : container.name;
  const init = pod.spec?.initContainers?.some((c) => c.name === name) ?? false;
  return { ...podRef(pod), fieldPath: `spec.${init ? 'initContainers' : 'containers'}{${name}}` };
}

/** `probedemo_default(uid)`, as upstream's format.Pod prints a pod. */
export function formatPod(pod: Pod): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
}
