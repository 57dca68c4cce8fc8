// core/v1 defaulting (pkg/apis/core/v1/defaults.go SetDefaults_*), applied in
// place as the generated SetObjectDefaults_* walk the object.
import { Quantity } from '../../resource/quantity.js';
import { parseImageName } from './image.js';
import type {
  ConfigMapVolumeSource,
  Container,
  CoreV1EndpointPort,
  Endpoints,
  EnvVar,
  HTTPGetAction,
  Lifecycle,
  LifecycleHandler,
  Namespace,
  Node,
  Pod,
  PodSpec,
  PodTemplateSpec,
  Probe,
  ResourceList,
  ResourceRequirements,
  Secret,
  Service,
  Volume,
} from './types.js';

export const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
export const TERMINATION_MESSAGE_PATH_DEFAULT = '/dev/termination-log';
export const DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS = 10800;
/** 0644: the default mode of secret, configMap, projected and downwardAPI volume files. */
export const DEFAULT_VOLUME_FILE_MODE = 0o644;
/** The label every namespace carries with its own name (v1.LabelMetadataName). */
export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';

/** SetDefaults_ResourceList: quantities rounded up to milli precision, printed canonically. */
export function defaultResourceList(list: ResourceList | undefined): void {
  if (!list) return;
  for (const [k, v] of Object.entries(list)) {
    const q = Quantity.tryParse(v);
    if (q) list[k] = q.roundUpMilli().toString();
  }
}

function defaultResources(r: ResourceRequirements | undefined): void {
  if (!r) return;
  defaultResourceList(r.limits);
  defaultResourceList(r.requests);
}

/** SetDefaults_HTTPGetAction: path `/`, scheme HTTP. */
function defaultHTTPGet(a: HTTPGetAction | undefined): void {
  if (!a) return;
  if (!a.path) a.path = '/';
  if (!a.scheme) a.scheme = 'HTTP';
}

/** SetDefaults_Probe (timeout 1, period 10, success 1, failure 3) and its handler's defaults. */
export function defaultProbe(p: Probe | undefined): void {
  if (!p) return;
  if (!p.timeoutSeconds) p.timeoutSeconds = 1;
  if (!p.periodSeconds) p.periodSeconds = 10;
  if (!p.successThreshold) p.successThreshold = 1;
  if (!p.failureThreshold) p.failureThreshold = 3;
  defaultHTTPGet(p.httpGet);
  if (p.grpc && p.grpc.service === undefined) p.grpc.service = '';
}

function defaultLifecycle(l: Lifecycle | undefined): void {
  const h = (x: LifecycleHandler | undefined): void => defaultHTTPGet(x?.httpGet);
  h(l?.postStart);
  h(l?.preStop);
}

function defaultEnv(env: EnvVar[] | undefined): void {
  for (const e of env ?? []) {
    const f = e.valueFrom?.fieldRef;
    if (f && !f.apiVersion) f.apiVersion = 'v1';
  }
}

/** imagePullPolicy from the tag: Always for `:latest` (or no tag), IfNotPresent otherwise. */
export function defaultImagePullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  return parseImageName(image ?? '')?.tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/**
 * SetDefaults_Container plus what its fields default to. `resources` is a
 * value (not a pointer) in Go's Container, so a real apiserver always
 * serializes it, as `resources: {}` when nothing was asked for.
 */
export function defaultContainer(c: Container): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = defaultImagePullPolicy(c.image);
  if (!c.terminationMessagePath) c.terminationMessagePath = TERMINATION_MESSAGE_PATH_DEFAULT;
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  for (const p of c.ports ?? []) if (!p.protocol) p.protocol = 'TCP';
  defaultEnv(c.env);
  c.resources ??= {};
  defaultResources(c.resources);
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  defaultLifecycle(c.lifecycle);
}

function defaultMode(src: { defaultMode?: number } | undefined): void {
  if (src && src.defaultMode === undefined) src.defaultMode = DEFAULT_VOLUME_FILE_MODE;
}

/** SetDefaults_Volume: no source means emptyDir; file modes 0644; hostPath type "". */
export function defaultVolume(v: Volume): void {
  const sources: (keyof Volume)[] = ['emptyDir', 'configMap', 'secret', 'hostPath', 'persistentVolumeClaim', 'downwardAPI', 'projected'];
  const known = sources.some((s) => v[s] !== undefined);
  const other = Object.keys(v).some((k) => k !== 'name' && !sources.includes(k as keyof Volume));
  if (!known && !other) v.emptyDir = {};
  defaultMode(v.secret);
  defaultMode(v.configMap as ConfigMapVolumeSource | undefined);
  defaultMode(v.projected);
  defaultMode(v.downwardAPI);
  if (v.hostPath && v.hostPath.type === undefined) v.hostPath.type = '';
  if (v.emptyDir?.sizeLimit) {
    const q = Quantity.tryParse(v.emptyDir.sizeLimit);
    if (q) v.emptyDir.sizeLimit = q.toString();
  }
  for (const item of v.downwardAPI?.items ?? []) if (item.fieldRef && !item.fieldRef.apiVersion) item.fieldRef.apiVersion = 'v1';
  for (const src of v.projected?.sources ?? []) {
    for (const item of src.downwardAPI?.items ?? []) if (item.fieldRef && !item.fieldRef.apiVersion) item.fieldRef.apiVersion = 'v1';
    if (src.serviceAccountToken && src.serviceAccountToken.expirationSeconds === undefined) {
      src.serviceAccountToken.expirationSeconds = 3600;
    }
  }
}

/** defaultHostNetworkPorts: with hostNetwork, hostPort mirrors containerPort. */
function defaultHostNetworkPorts(containers: Container[] | undefined): void {
  for (const c of containers ?? []) {
    for (const p of c.ports ?? []) if (!p.hostPort) p.hostPort = p.containerPort;
  }
}

/**
 * A pod template as the apiserver stores it: the PodSpec defaults, and the
 * template's ObjectMeta, a Go value whose zero creationTimestamp serializes
 * as `creationTimestamp: null` (what `kubectl get deploy -o yaml` shows).
 */
export function defaultPodTemplate(t: PodTemplateSpec | undefined): void {
  if (!t) return;
  const meta = (t.metadata ??= {});
  if (meta.creationTimestamp === undefined) (meta as { creationTimestamp?: string | null }).creationTimestamp = null;
  defaultPodSpec(t.spec);
}

/** SetDefaults_PodSpec (applies to pods and to pod templates). */
export function defaultPodSpec(spec: PodSpec | undefined): void {
  if (!spec) return;
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  if (spec.hostNetwork) {
    defaultHostNetworkPorts(spec.containers);
    defaultHostNetworkPorts(spec.initContainers);
  }
  if (!spec.securityContext) spec.securityContext = {};
  if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) {
    spec.terminationGracePeriodSeconds = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
  }
  if (!spec.schedulerName) spec.schedulerName = DEFAULT_SCHEDULER_NAME;
  // v1 conversion keeps the deprecated serviceAccount field in step with serviceAccountName.
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  for (const v of spec.volumes ?? []) defaultVolume(v);
  for (const c of spec.initContainers ?? []) defaultContainer(c);
  for (const c of spec.containers ?? []) defaultContainer(c);
  for (const c of spec.ephemeralContainers ?? []) defaultContainer(c);
  defaultResourceList(spec.overhead);
}

/** Copies limits into absent requests (SetDefaults_Pod: pods only, never templates). */
function requestsFromLimits(containers: Container[] | undefined): void {
  for (const c of containers ?? []) {
    const limits = c.resources?.limits;
    if (!limits || !c.resources) continue;
    const requests = (c.resources.requests ??= {});
    for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
  }
}

/**
 * SetDefaults_Pod: requests from limits, enableServiceLinks. priority and
 * preemptionPolicy are the Priority admission plugin's (the apiserver's
 * admission/priority.ts), which runs after defaulting.
 */
export function defaultPod(pod: Pod): void {
  if (!pod.spec) return;
  requestsFromLimits(pod.spec.containers);
  requestsFromLimits(pod.spec.initContainers);
  if (pod.spec.enableServiceLinks === undefined || pod.spec.enableServiceLinks === null) pod.spec.enableServiceLinks = true;
  defaultPodSpec(pod.spec);
  syncPodIPs(pod);
}

/** v1 conversion keeps podIP/podIPs[0] and hostIP/hostIPs[0] in step. */
function syncPodIPs(pod: Pod): void {
  const st = pod.status;
  if (!st) return;
  if (st.podIP && !st.podIPs?.length) st.podIPs = [{ ip: st.podIP }];
  if (!st.podIP && st.podIPs?.[0]) st.podIP = st.podIPs[0].ip;
  if (st.hostIP && !st.hostIPs?.length) st.hostIPs = [{ ip: st.hostIP }];
  if (!st.hostIP && st.hostIPs?.[0]) st.hostIP = st.hostIPs[0].ip;
}

/** The types a Service is reachable at from outside the cluster (service.ExternallyAccessible). */
function externallyAccessible(svc: Service): boolean {
  const t = svc.spec?.type;
  return t === 'LoadBalancer' || t === 'NodePort' || (t === 'ClusterIP' && (svc.spec?.externalIPs?.length ?? 0) > 0);
}

/** SetDefaults_Service. IP families and clusterIP allocation are the apiserver's. */
export function defaultService(svc: Service): void {
  const spec = (svc.spec ??= {});
  if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_SERVICE_AFFINITY_SECONDS } };
  }
  if (!spec.type) spec.type = 'ClusterIP';
  // The strategy's normalizeClusterIPs: clusterIP and clusterIPs[0] agree.
  if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
  if (!spec.clusterIP && spec.clusterIPs?.[0]) spec.clusterIP = spec.clusterIPs[0];
  for (const p of spec.ports ?? []) {
    if (!p.protocol) p.protocol = 'TCP';
    if (p.targetPort === undefined || p.targetPort === null || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
  }
  if (externallyAccessible(svc) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
  if (!spec.internalTrafficPolicy && (spec.type === 'NodePort' || spec.type === 'LoadBalancer' || spec.type === 'ClusterIP')) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
  if (spec.type === 'LoadBalancer') {
    for (const ing of svc.status?.loadBalancer?.ingress ?? []) if (ing.ip && !ing.ipMode) ing.ipMode = 'VIP';
  }
}

/** SetDefaults_Namespace + SetDefaults_NamespaceStatus: the name label and phase Active. */
export function defaultNamespace(ns: Namespace): void {
  if (ns.metadata.name) {
    ns.metadata.labels ??= {};
    ns.metadata.labels[LABEL_METADATA_NAME] = ns.metadata.name;
  }
  const status = (ns.status ??= {});
  if (!status.phase) status.phase = 'Active';
}

const utf8 = new TextEncoder();
const base64 = (text: string): string => btoa(Array.from(utf8.encode(text), (b) => String.fromCharCode(b)).join(''));

/** SetDefaults_Secret: type Opaque; stringData merged into data (base64) as v1 conversion does. */
export function defaultSecret(s: Secret): void {
  if (!s.type) s.type = 'Opaque';
  if (s.stringData) {
    s.data ??= {};
    for (const [k, v] of Object.entries(s.stringData)) s.data[k] = base64(String(v));
    delete s.stringData;
  }
}

/** SetDefaults_NodeStatus: allocatable copies capacity when absent; quantities canonical. */
export function defaultNode(node: Node): void {
  // v1 conversion keeps podCIDR and podCIDRs[0] in step.
  const spec = node.spec;
  if (spec?.podCIDR && !spec.podCIDRs?.length) spec.podCIDRs = [spec.podCIDR];
  if (spec && !spec.podCIDR && spec.podCIDRs?.[0]) spec.podCIDR = spec.podCIDRs[0];
  const st = node.status;
  if (!st) return;
  if (!st.allocatable && st.capacity) st.allocatable = { ...st.capacity };
  defaultResourceList(st.capacity);
  defaultResourceList(st.allocatable);
}

/** SetDefaults_EndpointPort (core): protocol TCP. */
export function defaultEndpoints(ep: Endpoints): void {
  for (const ss of ep.subsets ?? []) for (const p of ss.ports ?? ([] as CoreV1EndpointPort[])) if (!p.protocol) p.protocol = 'TCP';
}
