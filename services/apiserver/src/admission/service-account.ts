// ServiceAccount admission (upstream plugin/pkg/admission/serviceaccount): a
// pod without a service account runs as `default` in its namespace, and,
// unless automountServiceAccountToken is false on the pod or else on its
// ServiceAccount, gets the `kube-api-access-<suffix>` projected volume (a
// bound token the kubelet requests and refreshes, the cluster CA from the
// kube-root-ca.crt ConfigMap, the namespace) mounted read-only at
// /var/run/secrets/kubernetes.io/serviceaccount in every container and init
// container that has nothing mounted there. Mirror pods are left as the
// kubelet wrote them (a changed spec would make it delete and recreate the
// mirror pod), and may not reference a service account, secrets or token
// projections at all.
//
// The pod's ServiceAccount must exist: a miss in the watch cache is looked up
// again once the cache has caught up with storage (upstream: the lister, then
// a live GET), `default` up to ten times 100–200 ms apart (the ServiceAccount
// controller may not have made it in a new namespace yet); still missing, the
// pod is Forbidden with upstream's `error looking up service account` text.
//
// Difference from upstream: an apiserver without a signing key (kubelab's
// bare test servers; upstream requires one) neither checks the ServiceAccount
// nor adds a token volume, so pods still start there.

import { ANNOTATION_CONFIG_MIRROR, forbidden, type Pod, type PodSpec, type ServiceAccount, type Volume } from '@kubelab/api';
import type { AdmissionAttributes, AdmissionPlugin } from './types.js';

export const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
/** upstream ServiceAccountVolumeName and DefaultAPITokenMountPath. */
export const SERVICE_ACCOUNT_VOLUME_NAME = 'kube-api-access';
export const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** The ConfigMap the root CA publisher writes in every namespace. */
export const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
/** The token lifetime asked for: 3607 s marks a kube-api-access token, which the apiserver may extend (upstream WarnOnlyBoundTokenExpirationSeconds). */
export const KUBE_API_ACCESS_TOKEN_SECONDS = 3607;

/** Whether any container, volume or pull secret of the spec names a Secret (podutil.VisitPodSecretNames). */
export function referencesSecrets(spec: PodSpec): boolean {
  if ((spec.imagePullSecrets?.length ?? 0) > 0) return true;
  const containers = [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...(spec.ephemeralContainers ?? [])];
  for (const c of containers) {
    if (c.envFrom?.some((e) => e.secretRef)) return true;
    if (c.env?.some((e) => e.valueFrom?.secretKeyRef)) return true;
  }
  return (spec.volumes ?? []).some((v) => v.secret || v.projected?.sources?.some((s) => s.secret));
}

/** Why a mirror pod may not be created, or undefined (upstream Validate's mirror-pod branch). */
export function mirrorPodViolation(spec: PodSpec): string | undefined {
  if (spec.serviceAccountName) return 'a mirror pod may not reference service accounts';
  if (referencesSecrets(spec)) return 'a mirror pod may not reference secrets';
  if (spec.volumes?.some((v) => v.projected?.sources?.some((s) => s.serviceAccountToken))) {
    return 'a mirror pod may not use ServiceAccountToken volume projections';
  }
  return undefined;
}

/** The pod's choice wins, then the service account's; default true (upstream shouldAutomount). */
export function shouldAutomount(sa: ServiceAccount | undefined, spec: PodSpec): boolean {
  if (spec.automountServiceAccountToken !== undefined) return spec.automountServiceAccountToken;
  if (sa?.automountServiceAccountToken !== undefined) return sa.automountServiceAccountToken;
  return true;
}

/** The kube-api-access projected volume (upstream TokenVolumeSource). */
export function kubeApiAccessVolume(name: string): Volume {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: KUBE_API_ACCESS_TOKEN_SECONDS, path: 'token' } },
        { configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
      defaultMode: 0o644,
    },
  };
}

/**
 * Adds the token volume and its mount to every container and init container
 * not already mounting something at the token path; an existing
 * `kube-api-access-*` volume is reused (upstream mountServiceAccountToken).
 */
export function mountServiceAccountToken(spec: PodSpec, suffix: () => string): void {
  const existing = spec.volumes?.find((v) => v.name.startsWith(`${SERVICE_ACCOUNT_VOLUME_NAME}-`));
  const name = existing?.name ?? `${SERVICE_ACCOUNT_VOLUME_NAME}-${suffix()}`;
  let needed = false;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    if (c.volumeMounts?.some((m) => m.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH)) continue;
    const mount = { name, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH };
    c.volumeMounts = [...(c.volumeMounts ?? []), mount];
    needed = true;
  }
  if (needed && !existing) spec.volumes = [...(spec.volumes ?? []), kubeApiAccessVolume(name)];
}

/** upstream utilrand.String's alphabet (no vowels, no 0/1/3 — no words, no look-alikes). */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';
export function randomSuffix(n = 5): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHANUMS[Math.floor(Math.random() * ALPHANUMS.length)];
  return s;
}

export interface ServiceAccountAdmissionOptions {
  /** Add the kube-api-access volume (upstream MountServiceAccountToken; kubelab: only when tokens can be issued). */
  mountServiceAccountToken?: boolean;
  /** The pod's ServiceAccount: the watch cache, on a miss a consistent read (a promise). */
  serviceAccount?: (namespace: string, name: string) => ServiceAccount | undefined | Promise<ServiceAccount | undefined>;
  /** The volume name's suffix (tests fix it). */
  suffix?: () => string;
  /** Between lookups of a missing `default` (tests pass one that does not wait). */
  sleep?: (ms: number) => Promise<void>;
}

/** upstream getServiceAccount: ten tries for `default`, which its controller makes in every namespace; one for any other. */
const DEFAULT_LOOKUP_ATTEMPTS = 10;

/**
 * The pod's ServiceAccount or upstream's Forbidden: a hit answers at once
 * (no promise on the hot path); a miss of `default` is looked up again after
 * 100–200 ms, up to ten times in all.
 */
function requireServiceAccount(
  lookup: NonNullable<ServiceAccountAdmissionOptions['serviceAccount']>,
  sleep: (ms: number) => Promise<void>,
  a: AdmissionAttributes,
  name: string,
): ServiceAccount | Promise<ServiceAccount> {
  const first = lookup(a.namespace, name);
  if (first !== undefined && !(first instanceof Promise)) return first;
  return (async () => {
    const attempts = name === DEFAULT_SERVICE_ACCOUNT_NAME ? DEFAULT_LOOKUP_ATTEMPTS : 1;
    let sa = await first;
    const retryMs = 100 + Math.floor(Math.random() * 100);
    for (let i = 1; sa === undefined && i < attempts; i++) {
      await sleep(retryMs);
      sa = await lookup(a.namespace, name);
    }
    if (sa === undefined) throw forbidden(a.info, a.name, `error looking up service account ${a.namespace}/${name}: serviceaccount "${name}" not found`);
    return sa;
  })();
}

export function serviceAccount(o: ServiceAccountAdmissionOptions = {}): AdmissionPlugin {
  const suffix = o.suffix ?? (() => randomSuffix());
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  return {
    name: 'ServiceAccount',
    admit(a: AdmissionAttributes): void | Promise<void> {
      if (a.operation !== 'CREATE' || a.info.resource !== 'pods' || a.info.group !== '' || a.subresource || !a.object) return;
      const pod = a.object as Pod;
      const spec = (pod.spec ??= {} as PodSpec);
      if (pod.metadata.annotations?.[ANNOTATION_CONFIG_MIRROR] !== undefined) {
        const why = mirrorPodViolation(spec);
        if (why) throw forbidden(a.info, a.name, why);
        return;
      }
      if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || DEFAULT_SERVICE_ACCOUNT_NAME;
      // The deprecated alias is still written, as upstream's v1 conversion does.
      spec.serviceAccount = spec.serviceAccountName;
      if (!o.mountServiceAccountToken || !o.serviceAccount) return;
      const sa = requireServiceAccount(o.serviceAccount, sleep, a, spec.serviceAccountName);
      const mount = (found: ServiceAccount) => {
        if (shouldAutomount(found, spec)) mountServiceAccountToken(spec, suffix);
      };
      if (sa instanceof Promise) return sa.then(mount);
      mount(sa);
    },
  };
}
