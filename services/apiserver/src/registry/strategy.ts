// Per-resource rules (upstream: each resource's RESTCreateStrategy /
// RESTUpdateStrategy / RESTGracefulDeleteStrategy), as pure functions over
// plain objects.

import {
  ANNOTATION_DAEMONSET_TEMPLATE_GENERATION,
  badRequest,
  canonicalJson,
  isTerminalPhase,
  podQOSClass,
  type DeleteOptions,
  type FieldError,
  type KubeObject,
  type Pod,
  type ResourceInfo,
} from '@kubelab/api';
import type { UserInfo } from '@kubelab/api';
import { prepareCsrForCreate, prepareCsrForUpdate, validateCsrRequest } from './certificates.js';
import { isCrdResource, prepareCrdForCreate, prepareCrdForUpdate } from '../apiextensions/crd.js';
import { validateCrd } from '../apiextensions/validation.js';
import { prepareCronJobForCreate, prepareJobForCreate } from './batch.js';
import { isPersistentVolumeClaims, isPersistentVolumes, preparePersistentVolumeStatus, prepareStorageForCreate } from './storage.js';
import type { CustomResourceDefinition } from '@kubelab/api';

type Obj = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> } & Record<string, unknown>;

/** Resources whose strategies set metadata.generation (1 on create, +1 per spec change). */
const GENERATION = new Set([
  'apps/deployments',
  'apps/replicasets',
  'apps/daemonsets',
  'discovery.k8s.io/endpointslices',
  'apiextensions.k8s.io/customresourcedefinitions',
  'batch/jobs',
  'apps/statefulsets',
  'batch/cronjobs',
  'policy/poddisruptionbudgets',
  'networking.k8s.io/networkpolicies',
  'networking.k8s.io/ingresses',
  'networking.k8s.io/ingressclasses',
]);

export function tracksGeneration(info: ResourceInfo): boolean {
  return GENERATION.has(`${info.group}/${info.resource}`);
}

/**
 * An update without a resourceVersion overwrites the latest object (upstream
 * AllowUnconditionalUpdate, true for every built-in kind's strategy; custom
 * resources and their definitions say false).
 */
export function allowsUnconditionalUpdate(info: ResourceInfo): boolean {
  return info.group !== 'apiextensions.k8s.io';
}

export function hasStatusSubresource(info: ResourceInfo): boolean {
  return info.subresources.includes('status');
}

const isKind = (info: ResourceInfo, group: string, resource: string) => info.group === group && info.resource === resource;

// apps/v1 carries the internal DaemonSetSpec.TemplateGeneration as an
// annotation (the conversion writes it on every read; kubectl shows it).

/** The annotation's value as Go's strconv.ParseInt reads it; a malformed one fails the request's decoding (400). */
function templateGenerationOf(o: Obj): number | undefined {
  const v = o.metadata.annotations?.[ANNOTATION_DAEMONSET_TEMPLATE_GENERATION];
  if (v === undefined) return undefined;
  const n = /^[+-]?\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
  return n;
}

function setTemplateGeneration(o: Obj, n: number): void {
  o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [ANNOTATION_DAEMONSET_TEMPLATE_GENERATION]: String(n) };
}

const isCsr = (info: ResourceInfo) => isKind(info, 'certificates.k8s.io', 'certificatesigningrequests');

/** PrepareForCreate (runs after defaulting, as upstream): status a client may not set, fields the server owns; `user` is the creator. */
export function prepareForCreate(info: ResourceInfo, o: Obj, user?: UserInfo): void {
  if (tracksGeneration(info)) o.metadata.generation = 1;
  else delete o.metadata.generation;
  if (isKind(info, '', 'pods')) {
    // Pods start Pending with their QoS class fixed for life (GetPodQOS: one the client sent wins, else computed
    // from the defaulted requests and limits); the rest of status is the kubelet's to write.
    const sent = o.status?.qosClass;
    o.status = { phase: 'Pending', qosClass: typeof sent === 'string' && sent ? sent : podQOSClass(o as unknown as Pod) };
  } else if (isKind(info, '', 'namespaces')) {
    o.spec = { ...(o.spec ?? {}), finalizers: ['kubernetes'] };
    o.status = { phase: 'Active' };
  } else if (isKind(info, 'apps', 'daemonsets')) {
    o.status = {};
    // A client may start the count higher, never below 1.
    setTemplateGeneration(o, Math.max(1, templateGenerationOf(o) ?? 1));
  } else if (isKind(info, 'apps', 'deployments') || isKind(info, 'apps', 'replicasets')) {
    o.status = {};
  } else if (isKind(info, 'apps', 'statefulsets')) {
    // An empty StatefulSetStatus as Go writes it: replicas and availableReplicas are not omitempty.
    o.status = { replicas: 0, availableReplicas: 0 };
  } else if (isKind(info, '', 'services')) {
    o.status = { loadBalancer: {} };
  } else if (isKind(info, 'policy', 'poddisruptionbudgets')) {
    // The disruption controller's to fill; the counts are not omitempty.
    o.status = { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  } else if (isCsr(info)) {
    prepareCsrForCreate(o, user);
  } else if (isCrdResource(info)) {
    prepareCrdForCreate(o as unknown as CustomResourceDefinition);
  } else if (isKind(info, 'batch', 'jobs')) {
    prepareJobForCreate(o);
  } else if (isKind(info, 'batch', 'cronjobs')) {
    prepareCronJobForCreate(o);
  } else if (isPersistentVolumes(info) || isPersistentVolumeClaims(info)) {
    prepareStorageForCreate(info, o);
  } else if (isKind(info, '', 'resourcequotas')) {
    // The quota controller fills hard and used (resourcequota strategy PrepareForCreate).
    o.status = {};
  } else if (isKind(info, 'autoscaling', 'horizontalpodautoscalers')) {
    // The autoscaler's to fill (upstream autoscalerStrategy): desiredReplicas is not omitempty.
    o.status = { desiredReplicas: 0 };
  }
}

/** Checks the apiserver makes beyond @kubelab/api's validation, where they need what only it has (the x509 library). */
export function validateOnServer(info: ResourceInfo, o: Obj, old: Obj | undefined): FieldError[] {
  if (isCsr(info) && !old) return validateCsrRequest(o);
  if (isCrdResource(info)) return validateCrd(o as unknown as CustomResourceDefinition, old as unknown as CustomResourceDefinition | undefined);
  return [];
}

/**
 * JSON for "did this change" (upstream compares decoded structs): key order
 * does not count (kubectl sends keys sorted, defaults were appended), nor does
 * a null where the field is absent.
 */
const stableJson = (v: unknown): string => canonicalJson(v, { omitNull: true });

/**
 * PrepareForUpdate: builds what is stored from the client's object and the
 * current one. `status` writes only status; the main resource ignores status.
 */
export function prepareForUpdate(info: ResourceInfo, next: Obj, old: Obj, subresource: string | undefined): Obj {
  // A UID the client sent is kept for validation to compare (a patch carries one as a precondition); none takes the stored one (upstream BeforeUpdate).
  const requestedUid = next.metadata?.uid;
  let out: Obj;
  if (isCsr(info)) {
    out = prepareCsrForUpdate(next, old, subresource) as Obj;
  } else if (subresource === 'status') {
    out = { ...old, metadata: { ...old.metadata }, status: next.status } as Obj;
    if (next.status === undefined) delete out.status;
    // Labels and annotations may change with status writes for nodes and pods (kubelet), as upstream allows.
    if (next.metadata?.labels !== undefined) out.metadata.labels = next.metadata.labels;
    if (next.metadata?.annotations !== undefined) out.metadata.annotations = next.metadata.annotations;
    // The QoS class is set once at create; a writer that leaves it out (an old kubelet rejecting the pod) keeps it.
    if (isKind(info, '', 'pods') && out.status && !out.status.qosClass && old.status?.qosClass) out.status = { ...out.status, qosClass: old.status.qosClass };
    if (isPersistentVolumes(info)) preparePersistentVolumeStatus(out, old);
  } else if (subresource === 'ephemeralcontainers') {
    // dropNonEphemeralContainerUpdates: only spec.ephemeralContainers comes from the client.
    out = { ...old, metadata: { ...old.metadata }, spec: { ...(old.spec ?? {}), ephemeralContainers: next.spec?.ephemeralContainers } } as Obj;
    if (next.spec?.ephemeralContainers === undefined) delete out.spec!.ephemeralContainers;
  } else if (subresource === 'binding') {
    out = next; // the server's own write (spec.nodeName + PodScheduled)
  } else if (subresource === 'finalize') {
    out = { ...old, metadata: { ...old.metadata }, spec: { ...(old.spec ?? {}), finalizers: next.spec?.finalizers ?? [] } } as Obj;
  } else {
    out = next;
    if (hasStatusSubresource(info)) {
      if (old.status === undefined) delete out.status;
      else out.status = old.status;
    }
    if (isKind(info, '', 'namespaces')) out.spec = { ...(out.spec ?? {}), finalizers: (old.spec?.finalizers as unknown) ?? [] };
    if (isCrdResource(info)) prepareCrdForUpdate(out as unknown as CustomResourceDefinition, old as unknown as CustomResourceDefinition, subresource);
  }
  const m = out.metadata;
  m.uid = requestedUid || old.metadata.uid;
  m.creationTimestamp = old.metadata.creationTimestamp;
  m.name = old.metadata.name;
  if (old.metadata.namespace !== undefined) m.namespace = old.metadata.namespace;
  if (old.metadata.deletionTimestamp) m.deletionTimestamp = old.metadata.deletionTimestamp;
  else delete m.deletionTimestamp;
  if (old.metadata.deletionGracePeriodSeconds !== undefined) m.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
  else delete m.deletionGracePeriodSeconds;
  if (tracksGeneration(info)) {
    const gen = old.metadata.generation ?? 1;
    const changed =
      info.resource === 'endpointslices'
        ? stableJson({ ...out, metadata: undefined }) !== stableJson({ ...old, metadata: undefined })
        : out.spec !== old.spec && stableJson(out.spec) !== stableJson(old.spec);
    m.generation = changed ? gen + 1 : gen;
  } else if (old.metadata.generation !== undefined) m.generation = old.metadata.generation;
  else delete m.generation;
  if (isKind(info, 'apps', 'daemonsets')) {
    // The template generation is the server's: kept from the stored object, +1 when spec.template changes.
    if (subresource === undefined) templateGenerationOf(next);
    const gen = templateGenerationOf(old) ?? 1;
    const templateChanged = subresource === undefined && out.spec !== old.spec && stableJson(out.spec?.template) !== stableJson(old.spec?.template);
    setTemplateGeneration(out, templateChanged ? gen + 1 : gen);
  }
  return out;
}

/** Grace period for a delete (upstream: CheckGracefulDelete); 0 = remove now. */
export function gracePeriodSeconds(info: ResourceInfo, o: Obj, options: DeleteOptions): number {
  if (!isKind(info, '', 'pods')) return 0;
  const spec = (o.spec ?? {}) as { nodeName?: string; terminationGracePeriodSeconds?: number };
  const phase = (o.status as { phase?: string } | undefined)?.phase;
  // Not scheduled, or already terminated: nothing on a node to stop.
  if (!spec.nodeName || isTerminalPhase(phase)) return 0;
  const g = options.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
  return Math.max(0, Math.floor(g));
}

/** Finalizers that keep an object in storage after delete (metadata, and spec for namespaces). */
export function pendingFinalizers(info: ResourceInfo, o: Obj): string[] {
  const meta = o.metadata.finalizers ?? [];
  if (isKind(info, '', 'namespaces')) return [...meta, ...((o.spec?.finalizers as string[] | undefined) ?? [])];
  return meta;
}

/** Upstream shouldDeleteDuringUpdate: the last finalizer went away and no grace remains. */
export function shouldDeleteDuringUpdate(info: ResourceInfo, next: Obj, old: Obj): boolean {
  return !!next.metadata.deletionTimestamp && pendingFinalizers(info, next).length === 0 && (old.metadata.deletionGracePeriodSeconds ?? 0) === 0;
}

/** Resources whose store sets ReturnDeletedObject upstream (pods, services, namespaces, serviceaccounts): a finished delete answers the object, the rest a Status. */
const RETURN_DELETED_OBJECT = new Set(['/pods', '/services', '/namespaces', '/serviceaccounts']);

export function returnsDeletedObject(info: Pick<ResourceInfo, 'group' | 'resource'>): boolean {
  return RETURN_DELETED_OBJECT.has(`${info.group}/${info.resource}`);
}

export function isNamespaces(info: ResourceInfo): boolean {
  return isKind(info, '', 'namespaces');
}
