// The claim checks of service account tokens once their signature holds
// (upstream pkg/serviceaccount/claims.go and legacy.go Validate): time
// bounds with go-jose's one-minute leeway, and that the service account and
// the objects the token is bound to still exist with the UIDs it names.
// Pure over a getter and a clock; errors carry upstream's texts.

import type { KubeObject } from '@kubelab/api';
import type { KubernetesClaim, ObjectRef } from '@kubelab/serviceaccount';
import type { ServiceAccountTokenGetter } from './getter.js';

/** go-jose's jwt.DefaultLeeway. */
export const LEEWAY_SECONDS = 60;

/** Who a valid token stands for (upstream apiserver serviceaccount.ServiceAccountInfo). */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUID?: string;
  nodeName?: string;
  nodeUID?: string;
  credentialId?: string;
}

const notFound = (resource: string, name: string) => new Error(`${resource} "${name}" not found`);
const INVALIDATED = 'service account token has been invalidated';

/** Deleted more than the leeway ago (upstream invalidIfDeletedBefore). */
function deletedBefore(meta: KubeObject['metadata'], nowSeconds: number): boolean {
  return meta.deletionTimestamp !== undefined && Date.parse(meta.deletionTimestamp) / 1000 < nowSeconds - LEEWAY_SECONDS;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** exp / nbf / iat against now, as go-jose's Claims.Validate with the default leeway. */
export function validateTimes(claims: Record<string, unknown>, nowSeconds: number): void {
  const exp = num(claims.exp);
  const nbf = num(claims.nbf);
  const iat = num(claims.iat);
  if (exp !== undefined && nowSeconds - LEEWAY_SECONDS > exp) throw new Error('service account token has expired');
  if (nbf !== undefined && nowSeconds + LEEWAY_SECONDS < nbf) throw new Error('service account token is not valid yet');
  if (iat !== undefined && nowSeconds + LEEWAY_SECONDS < iat) throw new Error('service account token is issued in the future');
}

function isRef(v: unknown): v is ObjectRef {
  return typeof v === 'object' && v !== null && typeof (v as ObjectRef).name === 'string' && typeof (v as ObjectRef).uid === 'string';
}

/** The `kubernetes.io` claim of a bound token, or an error when it is missing or malformed. */
function privateClaim(claims: Record<string, unknown>): KubernetesClaim {
  const k = claims['kubernetes.io'] as Partial<KubernetesClaim> | undefined;
  if (!k || typeof k !== 'object') throw new Error('service account token claims are missing the kubernetes.io claim');
  if (!k.namespace) throw new Error('namespace claim is missing');
  if (!isRef(k.serviceaccount)) throw new Error('service account claim is missing');
  for (const f of ['pod', 'secret', 'node'] as const) if (k[f] !== undefined && !isRef(k[f])) throw new Error(`${f} claim is malformed`);
  return k as KubernetesClaim;
}

/** Upstream validator.Validate for bound tokens (issued by TokenRequest). */
export function validateBound(claims: Record<string, unknown>, getter: ServiceAccountTokenGetter, nowSeconds: number): ServiceAccountInfo {
  validateTimes(claims, nowSeconds);
  const k = privateClaim(claims);
  const ns = k.namespace;
  const saRef = k.serviceaccount;
  const sa = getter.serviceAccount(ns, saRef.name);
  if (!sa) throw notFound('serviceaccounts', saRef.name);
  if (sa.metadata.uid !== saRef.uid) throw new Error(`service account UID (${sa.metadata.uid ?? ''}) does not match claim (${saRef.uid})`);
  if (deletedBefore(sa.metadata, nowSeconds)) throw new Error(`service account ${ns}/${saRef.name} has been deleted`);
  if (k.secret) {
    const secret = getter.secret(ns, k.secret.name);
    if (!secret) throw new Error(INVALIDATED);
    if (secret.metadata.uid !== k.secret.uid) throw new Error(`secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${k.secret.uid})`);
    if (deletedBefore(secret.metadata, nowSeconds)) throw new Error(INVALIDATED);
  }
  const info: ServiceAccountInfo = { namespace: ns, name: saRef.name, uid: saRef.uid };
  if (k.pod) {
    const pod = getter.pod(ns, k.pod.name);
    if (!pod || deletedBefore(pod.metadata, nowSeconds)) throw new Error(INVALIDATED);
    if (pod.metadata.uid !== k.pod.uid) throw new Error(`pod UID (${pod.metadata.uid ?? ''}) does not match service account pod ref claim (${k.pod.uid})`);
    info.podName = k.pod.name;
    info.podUID = k.pod.uid;
  }
  if (k.node) {
    // A token bound to the node itself dies with it; a pod-bound token only reports its pod's node.
    if (!k.pod) {
      const node = getter.node(k.node.name);
      if (!node || deletedBefore(node.metadata, nowSeconds)) throw new Error(INVALIDATED);
      if (node.metadata.uid !== k.node.uid) throw new Error(`node UID (${node.metadata.uid ?? ''}) does not match service account node ref claim (${k.node.uid})`);
    }
    info.nodeName = k.node.name;
    info.nodeUID = k.node.uid;
  }
  if (typeof claims.jti === 'string' && claims.jti) info.credentialId = `JTI=${claims.jti}`;
  return info;
}

/** Upstream legacyValidator.Validate for tokens the token controller wrote into Secrets. */
export function validateLegacy(token: string, claims: Record<string, unknown>, getter: ServiceAccountTokenGetter): ServiceAccountInfo {
  const str = (k: string) => (typeof claims[k] === 'string' ? (claims[k] as string) : '');
  const ns = str('kubernetes.io/serviceaccount/namespace');
  const secretName = str('kubernetes.io/serviceaccount/secret.name');
  const saName = str('kubernetes.io/serviceaccount/service-account.name');
  const saUID = str('kubernetes.io/serviceaccount/service-account.uid');
  if (!ns) throw new Error('namespace claim is missing');
  if (!secretName) throw new Error('secretName claim is missing');
  if (!saName) throw new Error('serviceAccountName claim is missing');
  if (!saUID) throw new Error('serviceAccountUID claim is missing');
  const secret = getter.secret(ns, secretName);
  if (!secret || secret.metadata.deletionTimestamp) throw new Error('Token has been invalidated');
  const stored = secret.data?.token ? Buffer.from(secret.data.token, 'base64').toString('utf8') : '';
  if (stored !== token) throw new Error("Token does not match server's copy");
  const sa = getter.serviceAccount(ns, saName);
  if (!sa) throw notFound('serviceaccounts', saName);
  if (sa.metadata.deletionTimestamp) throw new Error(`ServiceAccount ${ns}/${saName} has been deleted`);
  if (sa.metadata.uid !== saUID) throw new Error(`ServiceAccount UID (${sa.metadata.uid ?? ''}) does not match claim (${saUID})`);
  return { namespace: ns, name: saName, uid: saUID };
}
