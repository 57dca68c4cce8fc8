// Which container a pod's log, exec or attach request means (upstream
// pkg/registry/core/pod's validateContainer, used by LogREST, ExecREST and AttachREST).

import { badRequest, type Pod } from '@kubelab/api';

/** The named container if the pod has it, else the pod's only container; a 400 otherwise. */
export function validateContainer(pod: Pod, requested: string | null): string {
  const spec = pod.spec;
  const all = [...(spec?.initContainers ?? []), ...(spec?.containers ?? []), ...(spec?.ephemeralContainers ?? [])].map((c) => c.name);
  if (requested) {
    if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${pod.metadata?.name}`);
    return requested;
  }
  const containers = spec?.containers ?? [];
  if (containers.length === 1) return containers[0]!.name;
  if (containers.length === 0) throw badRequest(`a container name must be specified for pod ${pod.metadata?.name}`);
  throw badRequest(`a container name must be specified for pod ${pod.metadata?.name}, choose one of: [${all.join(' ')}]`);
}
