// core/v1 validation (pkg/apis/core/validation): pods, services, namespaces,
// config maps, secrets, nodes, events, service accounts, endpoints, bindings.
// Paths and messages as upstream prints them.
import type {
  Binding,
  ConfigMap,
  Container,
  ContainerStatus,
  Endpoints,
  Event,
  HTTPGetAction,
  Lifecycle,
  Namespace,
  Node,
  Pod,
  PodSpec,
  PodTemplateSpec,
  Probe,
  ResourceRequirements,
  Secret,
  Service,
  ServiceAccount,
  Taint,
  Toleration,
  Volume,
} from '../core/v1/types.js';
import type { FieldError } from '../meta/status.js';
import type { IntOrString } from '../meta/types.js';
import { Quantity } from '../resource/quantity.js';
import { child, duplicate, forbidden, index, invalid, key, notFound, notSupported, required, tooLong } from './field.js';
import {
  IS_NEGATIVE_ERROR_MSG,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validateAnnotations,
  validateDNS1123Label,
  validateDNS1123Subdomain,
  validateFinalizerName,
  validateImmutableField,
  validateLabelName,
  validateLabels,
  validateNonnegativeField,
  validateObjectMeta,
  validateObjectMetaUpdate,
  utf8Length,
} from './meta.js';
import { inclusiveRangeError, isConfigMapKey, isEnvVarName, isIPv4, isIPv6, isQualifiedName, isValidIP, isValidLabelValue, isValidPortName, isValidPortNum } from './strings.js';
import { deepEqual, diffLines, goNodeAddress, goServicePortKey, goTaint, goToleration } from './util.js';
import { parseIpv4Cidr } from '../net/ipv4.js';
import { ANNOTATION_CONFIG_MIRROR } from '../helpers/wellknown.js';

const MAX_INT32 = 2147483647;
/** MaxSecretSize: 1 MiB of data in a Secret or ConfigMap. */
export const MAX_SECRET_SIZE = 1024 * 1024;
const SUPPORTED_PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const FILE_MODE_ERROR_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';

// ---------------------------------------------------------------- containers

/** ValidatePortNumOrName: an int port in range or an IANA service name. */
export function validatePortNumOrName(port: IntOrString | undefined, path: string): FieldError[] {
  if (typeof port === 'number') return isValidPortNum(port).map((m) => invalid(path, port, m));
  if (typeof port === 'string') return isValidPortName(port).map((m) => invalid(path, port, m));
  return isValidPortNum(0).map((m) => invalid(path, 0, m));
}

function validateHTTPGet(a: HTTPGetAction, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!a.path) errs.push(required(child(path, 'path')));
  errs.push(...validatePortNumOrName(a.port, child(path, 'port')));
  if (a.scheme !== 'HTTP' && a.scheme !== 'HTTPS') errs.push(notSupported(child(path, 'scheme'), a.scheme ?? '', ['HTTP', 'HTTPS']));
  for (const h of a.httpHeaders ?? []) {
    if (!/^[-A-Za-z0-9]+$/.test(h.name)) {
      errs.push(invalid(child(path, 'httpHeaders'), h.name, "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')"));
    }
  }
  return errs;
}

type Handler = { exec?: { command?: string[] }; httpGet?: HTTPGetAction; tcpSocket?: { port: IntOrString }; grpc?: { port: number }; sleep?: { seconds: number } };

/** validateHandler: exactly one handler type (exec, httpGet, tcpSocket, grpc, sleep in that order). */
function validateHandler(h: Handler, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  const one = (name: keyof Handler, check: () => FieldError[]): void => {
    if (h[name] === undefined || h[name] === null) return;
    if (n > 0) errs.push(forbidden(child(path, name), 'may not specify more than 1 handler type'));
    else {
      n++;
      errs.push(...check());
    }
  };
  one('exec', () => ((h.exec?.command?.length ?? 0) === 0 ? [required(child(path, 'exec', 'command'))] : []));
  one('httpGet', () => validateHTTPGet(h.httpGet as HTTPGetAction, child(path, 'httpGet')));
  one('tcpSocket', () => validatePortNumOrName(h.tcpSocket?.port, child(path, 'tcpSocket', 'port')));
  one('grpc', () => isValidPortNum(h.grpc?.port ?? 0).map((m) => invalid(child(path, 'grpc', 'port'), h.grpc?.port ?? 0, m)));
  one('sleep', () => {
    const s = h.sleep?.seconds ?? 0;
    const max = gracePeriod ?? 30;
    return s <= 0 || s > max ? [invalid(child(path, 'sleep', 'seconds'), s, `must be greater than 0 and less than terminationGracePeriodSeconds (${max})`)] : [];
  });
  if (n === 0) errs.push(required(path, 'must specify a handler type'));
  return errs;
}

function validateProbe(p: Probe | undefined, gracePeriod: number | undefined, path: string): FieldError[] {
  if (!p) return [];
  const errs = validateHandler({ exec: p.exec, httpGet: p.httpGet, tcpSocket: p.tcpSocket, grpc: p.grpc }, gracePeriod, path);
  for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const) {
    errs.push(...validateNonnegativeField(p[f], child(path, f)));
  }
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds !== null && p.terminationGracePeriodSeconds <= 0) {
    errs.push(invalid(child(path, 'terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must be greater than 0'));
  }
  return errs;
}

function validateLivenessLikeProbe(p: Probe | undefined, gracePeriod: number | undefined, path: string): FieldError[] {
  if (!p) return [];
  const errs = validateProbe(p, gracePeriod, path);
  if (p.successThreshold !== 1) errs.push(invalid(child(path, 'successThreshold'), p.successThreshold ?? 0, 'must be 1'));
  return errs;
}

function validateReadinessProbe(p: Probe | undefined, gracePeriod: number | undefined, path: string): FieldError[] {
  if (!p) return [];
  const errs = validateProbe(p, gracePeriod, path);
  if (p.terminationGracePeriodSeconds !== undefined && p.terminationGracePeriodSeconds !== null) {
    errs.push(invalid(child(path, 'terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
  }
  return errs;
}

function validateLifecycle(l: Lifecycle, gracePeriod: number | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (l.postStart) errs.push(...validateHandler(l.postStart, gracePeriod, child(path, 'postStart')));
  if (l.preStop) errs.push(...validateHandler(l.preStop, gracePeriod, child(path, 'preStop')));
  return errs;
}

function isStandardContainerResource(name: string): boolean {
  return name === 'cpu' || name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-');
}

const isNativeResource = (name: string): boolean => !name.includes('/') || name.includes('kubernetes.io/');
const isOvercommitAllowed = (name: string): boolean => isNativeResource(name) && !name.startsWith('hugepages-');
const isIntegerResource = (name: string): boolean => !isNativeResource(name) || name === 'pods' || name.startsWith('attachable-volumes-');

function parseQuantityField(value: string, path: string, errs: FieldError[]): Quantity | undefined {
  try {
    return Quantity.parse(value);
  } catch (e) {
    errs.push(invalid(path, value, (e as Error).message));
    return undefined;
  }
}

/** ValidateResourceRequirements: names, non-negative quantities, requests ≤ limits. */
export function validateResourceRequirements(r: ResourceRequirements | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!r) return errs;
  const limPath = child(path, 'limits');
  const reqPath = child(path, 'requests');
  const limits = new Map<string, Quantity>();
  const checkName = (name: string, p: string): void => {
    for (const m of isQualifiedName(name)) errs.push(invalid(p, name, m));
    if (!name.includes('/')) {
      if (!isStandardContainerResource(name)) errs.push(invalid(p, name, 'must be a standard resource for containers'));
    } else if (!isNativeResource(name) && name.startsWith('requests.')) {
      errs.push(invalid(p, name, "doesn't follow extended resource name standard"));
    }
  };
  const checkValue = (name: string, q: Quantity, p: string): void => {
    if (q.sign() < 0) errs.push(invalid(p, q.toString(), IS_NEGATIVE_ERROR_MSG));
    if (isIntegerResource(name) && q.milliValue() % 1000 !== 0) errs.push(invalid(p, q.toString(), 'must be an integer'));
  };
  for (const [name, v] of Object.entries(r.limits ?? {})) {
    const p = key(limPath, name);
    checkName(name, p);
    const q = parseQuantityField(v, p, errs);
    if (q) {
      checkValue(name, q, p);
      limits.set(name, q);
    }
  }
  for (const [name, v] of Object.entries(r.requests ?? {})) {
    const p = key(reqPath, name);
    checkName(name, p);
    const q = parseQuantityField(v, p, errs);
    if (!q) continue;
    checkValue(name, q, p);
    const lim = limits.get(name);
    if (lim) {
      if (q.cmp(lim) !== 0 && !isOvercommitAllowed(name)) {
        errs.push(invalid(reqPath, q.toString(), `must be equal to ${name} limit of ${lim.toString()}`));
      } else if (q.cmp(lim) > 0) {
        errs.push(invalid(reqPath, q.toString(), `must be less than or equal to ${name} limit of ${lim.toString()}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
  }
  return errs;
}

function validateEnv(c: Container, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (c.env ?? []).forEach((ev, i) => {
    const p = index(path, i);
    if (!ev.name) errs.push(required(child(p, 'name')));
    for (const m of isEnvVarName(ev.name ?? '')) errs.push(invalid(child(p, 'name'), ev.name ?? '', m));
    const vf = ev.valueFrom;
    if (vf) {
      const vp = child(p, 'valueFrom');
      const sources = (['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'] as const).filter((s) => vf[s]);
      if (ev.value) errs.push(invalid(vp, '', 'may not be specified when `value` is not empty'));
      if (sources.length === 0) {
        errs.push(invalid(vp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
      } else if (sources.length > 1) {
        errs.push(invalid(vp, '', 'may not have more than one field specified at a time'));
      }
      for (const s of ['configMapKeyRef', 'secretKeyRef'] as const) {
        const ref = vf[s];
        if (!ref) continue;
        if (!ref.name) errs.push(required(child(vp, s, 'name')));
        if (!ref.key) errs.push(required(child(vp, s, 'key')));
        else for (const m of isConfigMapKey(ref.key)) errs.push(invalid(child(vp, s, 'key'), ref.key, m));
      }
      if (vf.fieldRef && !vf.fieldRef.fieldPath) errs.push(required(child(vp, 'fieldRef', 'fieldPath')));
      if (vf.resourceFieldRef && !vf.resourceFieldRef.resource) errs.push(required(child(vp, 'resourceFieldRef', 'resource')));
    }
  });
  return errs;
}

function validateContainerPorts(c: Container, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (c.ports ?? []).forEach((port, i) => {
    const p = index(path, i);
    if (port.name) {
      const msgs = isValidPortName(port.name);
      if (msgs.length) for (const m of msgs) errs.push(invalid(child(p, 'name'), port.name, m));
      else if (names.has(port.name)) errs.push(duplicate(child(p, 'name'), port.name));
      else names.add(port.name);
    }
    if (!port.containerPort) errs.push(required(child(p, 'containerPort')));
    else for (const m of isValidPortNum(port.containerPort)) errs.push(invalid(child(p, 'containerPort'), port.containerPort, m));
    if (port.hostPort) for (const m of isValidPortNum(port.hostPort)) errs.push(invalid(child(p, 'hostPort'), port.hostPort, m));
    if (!port.protocol) errs.push(required(child(p, 'protocol')));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(port.protocol)) errs.push(notSupported(child(p, 'protocol'), port.protocol, SUPPORTED_PORT_PROTOCOLS));
  });
  return errs;
}

function validateVolumeMounts(c: Container, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const mountPoints = new Set<string>();
  (c.volumeMounts ?? []).forEach((m, i) => {
    const p = index(path, i);
    if (!m.name) errs.push(required(child(p, 'name')));
    if (!volumes.has(m.name)) errs.push(notFound(child(p, 'name'), m.name ?? ''));
    if (!m.mountPath) errs.push(required(child(p, 'mountPath')));
    if (mountPoints.has(m.mountPath)) errs.push(invalid(child(p, 'mountPath'), m.mountPath, 'must be unique'));
    mountPoints.add(m.mountPath);
    if (m.subPath && (m.subPath.startsWith('/') || m.subPath.split('/').includes('..'))) {
      errs.push(invalid(child(p, 'subPath'), m.subPath, m.subPath.startsWith('/') ? 'must be a relative path' : "must not contain '..'"));
    }
  });
  return errs;
}

function validatePullPolicy(policy: string | undefined, path: string): FieldError[] {
  if (!policy) return [required(path)];
  return ['Always', 'IfNotPresent', 'Never'].includes(policy) ? [] : [notSupported(path, policy, ['Always', 'IfNotPresent', 'Never'])];
}

/** validateContainerCommon: name, image, termination message policy, ports, env, mounts, pull policy, resources. */
function validateContainerCommon(c: Container, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push(required(child(path, 'name')));
  else errs.push(...validateDNS1123Label(c.name, child(path, 'name')));
  if (!c.image) errs.push(required(child(path, 'image')));
  const tmp = c.terminationMessagePolicy;
  if (!tmp) errs.push(required(child(path, 'terminationMessagePolicy')));
  else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') {
    errs.push(notSupported(child(path, 'terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  }
  errs.push(...validateContainerPorts(c, child(path, 'ports')));
  errs.push(...validateEnv(c, child(path, 'env')));
  errs.push(...validateVolumeMounts(c, volumes, child(path, 'volumeMounts')));
  errs.push(...validatePullPolicy(c.imagePullPolicy, child(path, 'imagePullPolicy')));
  errs.push(...validateResourceRequirements(c.resources, child(path, 'resources')));
  return errs;
}

/** AccumulateUniqueHostPorts: one hostIP/protocol/hostPort per pod. */
function checkHostPortConflicts(containers: Container[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  containers.forEach((c, ci) => {
    (c.ports ?? []).forEach((port, pi) => {
      if (!port.hostPort) return;
      const k = `${port.hostIP ?? ''}/${port.protocol ?? ''}/${port.hostPort}`;
      if (seen.has(k)) errs.push(duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), k));
      seen.add(k);
    });
  });
  return errs;
}

function validateContainers(spec: PodSpec, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const containers = spec.containers ?? [];
  if (containers.length === 0) errs.push(required(path));
  const names = new Set<string>();
  const grace = spec.terminationGracePeriodSeconds;
  containers.forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, volumes, p));
    if (names.has(c.name)) errs.push(duplicate(child(p, 'name'), c.name));
    else names.add(c.name);
    if (c.lifecycle) errs.push(...validateLifecycle(c.lifecycle, grace, child(p, 'lifecycle')));
    errs.push(...validateLivenessLikeProbe(c.livenessProbe, grace, child(p, 'livenessProbe')));
    errs.push(...validateReadinessProbe(c.readinessProbe, grace, child(p, 'readinessProbe')));
    errs.push(...validateLivenessLikeProbe(c.startupProbe, grace, child(p, 'startupProbe')));
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) errs.push(forbidden(child(p, 'restartPolicy'), 'may not be set for non-init containers'));
  });
  errs.push(...checkHostPortConflicts(containers, path));
  return errs;
}

function validateInitContainers(spec: PodSpec, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set((spec.containers ?? []).map((c) => c.name));
  const grace = spec.terminationGracePeriodSeconds;
  (spec.initContainers ?? []).forEach((c, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(c, volumes, p));
    let restartAlways = false;
    if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
      if (c.restartPolicy !== 'Always') errs.push(notSupported(child(p, 'restartPolicy'), c.restartPolicy, ['Always']));
      restartAlways = c.restartPolicy === 'Always';
    }
    if (names.has(c.name)) errs.push(duplicate(child(p, 'name'), c.name));
    else if (c.name) names.add(c.name);
    errs.push(...checkHostPortConflicts([c], path));
    if (restartAlways) {
      if (c.lifecycle) errs.push(...validateLifecycle(c.lifecycle, grace, child(p, 'lifecycle')));
      errs.push(...validateLivenessLikeProbe(c.livenessProbe, grace, child(p, 'livenessProbe')));
      errs.push(...validateReadinessProbe(c.readinessProbe, grace, child(p, 'readinessProbe')));
      errs.push(...validateLivenessLikeProbe(c.startupProbe, grace, child(p, 'startupProbe')));
    } else {
      const msg = 'may not be set for init containers without restartPolicy=Always';
      if (c.lifecycle) errs.push(forbidden(child(p, 'lifecycle'), msg));
      if (c.livenessProbe) errs.push(forbidden(child(p, 'livenessProbe'), msg));
      if (c.readinessProbe) errs.push(forbidden(child(p, 'readinessProbe'), msg));
      if (c.startupProbe) errs.push(forbidden(child(p, 'startupProbe'), msg));
    }
  });
  return errs;
}

/**
 * Container fields an ephemeral container may not set, in the struct's order
 * (upstream: allowedEphemeralContainerFields): they would make it part of
 * the workload (ports, probes, resources, lifecycle hooks, restarts).
 */
const EPHEMERAL_FORBIDDEN_FIELDS = ['ports', 'resources', 'resizePolicy', 'restartPolicy', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle'] as const;
const EPHEMERAL_FORBIDDEN_MSG = 'cannot be set for an Ephemeral Container';

/** A field left at its zero value (Go's reflect.DeepEqual with the zero value): absent, null, empty list or empty object. */
function isZero(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === false || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).every(isZero);
  return false;
}

/** validateEphemeralContainers: common container rules, names unique across all containers, an existing target, no workload fields. */
function validateEphemeralContainers(spec: PodSpec, volumes: Set<string>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ephemeral = spec.ephemeralContainers ?? [];
  if (ephemeral.length === 0) return errs;
  const others = new Set([...(spec.containers ?? []), ...(spec.initContainers ?? [])].map((c) => c.name));
  const all = new Set(others);
  ephemeral.forEach((ec, i) => {
    const p = index(path, i);
    errs.push(...validateContainerCommon(ec, volumes, p));
    if (all.has(ec.name)) errs.push(duplicate(child(p, 'name'), ec.name));
    else all.add(ec.name);
    if (ec.targetContainerName && !others.has(ec.targetContainerName)) errs.push(notFound(child(p, 'targetContainerName'), ec.targetContainerName));
    const fields = ec as unknown as Record<string, unknown>;
    for (const f of EPHEMERAL_FORBIDDEN_FIELDS) if (!isZero(fields[f])) errs.push(forbidden(child(p, f), EPHEMERAL_FORBIDDEN_MSG));
    (ec.volumeMounts ?? []).forEach((vm, j) => {
      const mp = index(child(p, 'volumeMounts'), j);
      if (vm.subPath) errs.push(forbidden(child(mp, 'subPath'), EPHEMERAL_FORBIDDEN_MSG));
      if (vm.subPathExpr) errs.push(forbidden(child(mp, 'subPathExpr'), EPHEMERAL_FORBIDDEN_MSG));
    });
  });
  return errs;
}

// ---------------------------------------------------------------- volumes

const VOLUME_TYPES = ['hostPath', 'emptyDir', 'secret', 'persistentVolumeClaim', 'configMap', 'downwardAPI', 'projected'] as const;

function validateFileMode(mode: number | undefined, path: string): FieldError[] {
  return mode !== undefined && mode !== null && (mode < 0 || mode > 0o777) ? [invalid(path, mode, FILE_MODE_ERROR_MSG)] : [];
}

function validateVolumeSource(v: Volume, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  const extra = Object.keys(v).filter((k) => k !== 'name' && !(VOLUME_TYPES as readonly string[]).includes(k));
  for (const t of VOLUME_TYPES) {
    if (v[t] === undefined || v[t] === null) continue;
    if (n > 0) {
      errs.push(forbidden(child(path, t), 'may not specify more than 1 volume type'));
      continue;
    }
    n++;
    const p = child(path, t);
    switch (t) {
      case 'hostPath':
        if (!v.hostPath?.path) errs.push(required(child(p, 'path')));
        else if (v.hostPath.path.split('/').includes('..')) errs.push(invalid(child(p, 'path'), v.hostPath.path, "must not contain '..'"));
        break;
      case 'secret':
        errs.push(...validateFileMode(v.secret?.defaultMode, child(p, 'defaultMode')));
        break;
      case 'configMap':
        if (!v.configMap?.name) errs.push(required(child(p, 'name')));
        errs.push(...validateFileMode(v.configMap?.defaultMode, child(p, 'defaultMode')));
        break;
      case 'persistentVolumeClaim':
        if (!v.persistentVolumeClaim?.claimName) errs.push(required(child(p, 'claimName')));
        break;
      case 'emptyDir': {
        const sl = v.emptyDir?.sizeLimit;
        if (sl) {
          const q = parseQuantityField(sl, child(p, 'sizeLimit'), errs);
          if (q && q.sign() < 0) errs.push(invalid(child(p, 'sizeLimit'), q.toString(), IS_NEGATIVE_ERROR_MSG));
        }
        break;
      }
      default:
        break;
    }
  }
  if (n === 0 && extra.length === 0) errs.push(required(path, 'must specify a volume type'));
  return errs;
}

/** ValidateVolumes: names are DNS labels and unique; exactly one source each. Returns the valid names. */
function validateVolumes(volumes: Volume[] | undefined, path: string): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  (volumes ?? []).forEach((v, i) => {
    const p = index(path, i);
    const el = validateVolumeSource(v, p);
    if (!v.name) el.push(required(child(p, 'name')));
    else el.push(...validateDNS1123Label(v.name, child(p, 'name')));
    if (names.has(v.name)) el.push(duplicate(child(p, 'name'), v.name));
    if (el.length === 0) names.add(v.name);
    else errs.push(...el);
  });
  return { names, errs };
}

// ---------------------------------------------------------------- scheduling

function validateTaintEffect(effect: string | undefined, allowEmpty: boolean, path: string): FieldError[] {
  if (!allowEmpty && !effect) return [required(path)];
  const valid = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
  return valid.includes(effect ?? '') ? [] : [notSupported(path, effect ?? '', valid)];
}

/** ValidateTolerations. */
export function validateTolerations(tolerations: Toleration[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (tolerations ?? []).forEach((t, i) => {
    const p = index(path, i);
    if (t.key) errs.push(...validateLabelName(t.key, child(p, 'key')));
    if (!t.key && t.operator !== 'Exists') {
      errs.push(invalid(child(p, 'operator'), t.operator ?? '', 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null && t.effect !== 'NoExecute') {
      errs.push(invalid(child(p, 'effect'), t.effect ?? '', "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    switch (t.operator ?? '') {
      case 'Equal':
      case '': {
        const msgs = isValidLabelValue(t.value ?? '');
        if (msgs.length) errs.push(invalid(child(p, 'operator'), t.value ?? '', msgs.join(';')));
        break;
      }
      case 'Exists':
        if (t.value) errs.push(invalid(child(p, 'operator'), goToleration(t), "value must be empty when `operator` is 'Exists'"));
        break;
      default:
        errs.push(notSupported(child(p, 'operator'), t.operator, ['Equal', 'Exists']));
    }
    if (t.effect) errs.push(...validateTaintEffect(t.effect, true, child(p, 'effect')));
  });
  return errs;
}

/** validateNodeTaints (upstream reports them under metadata.taints). */
function validateTaints(taints: Taint[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (taints ?? []).forEach((t, i) => {
    const p = index(path, i);
    errs.push(...validateLabelName(t.key ?? '', child(p, 'key')));
    const msgs = isValidLabelValue(t.value ?? '');
    if (msgs.length) errs.push(invalid(child(p, 'value'), t.value ?? '', msgs.join(';')));
    errs.push(...validateTaintEffect(t.effect, false, child(p, 'effect')));
    const k = `${t.effect}\u0000${t.key}`;
    if (seen.has(k)) {
      errs.push({ type: 'FieldValueDuplicate', field: p, badValue: goTaint(t), detail: 'taints must be unique by key and effect pair' });
      return;
    }
    seen.add(k);
  });
  return errs;
}

// ---------------------------------------------------------------- pod spec

/** ValidatePodSpec at `path` (`spec`, or `spec.template.spec` for templates). */
export function validatePodSpec(spec: PodSpec | undefined, path: string): FieldError[] {
  const s: PodSpec = spec ?? { containers: [] };
  const errs: FieldError[] = [];
  if (s.terminationGracePeriodSeconds === undefined || s.terminationGracePeriodSeconds === null) {
    errs.push(required(child(path, 'terminationGracePeriodSeconds')));
  }
  const vols = validateVolumes(s.volumes, child(path, 'volumes'));
  errs.push(...vols.errs);
  errs.push(...validateContainers(s, vols.names, child(path, 'containers')));
  errs.push(...validateInitContainers(s, vols.names, child(path, 'initContainers')));
  errs.push(...validateEphemeralContainers(s, vols.names, child(path, 'ephemeralContainers')));
  const rp = s.restartPolicy;
  if (!rp) errs.push(required(child(path, 'restartPolicy')));
  else if (!['Always', 'OnFailure', 'Never'].includes(rp)) errs.push(notSupported(child(path, 'restartPolicy'), rp, ['Always', 'OnFailure', 'Never']));
  const dp = s.dnsPolicy;
  if (!dp) errs.push(required(child(path, 'dnsPolicy')));
  else if (!['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'].includes(dp)) {
    errs.push(notSupported(child(path, 'dnsPolicy'), dp, ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None']));
  }
  if (dp === 'None' && !s.dnsConfig) errs.push(required(child(path, 'dnsConfig'), 'must provide `dnsConfig` when `dnsPolicy` is None'));
  errs.push(...validateLabels(s.nodeSelector, child(path, 'nodeSelector')));
  if (s.serviceAccountName) for (const m of nameIsDNSSubdomain(s.serviceAccountName, false)) errs.push(invalid(child(path, 'serviceAccountName'), s.serviceAccountName, m));
  if (s.nodeName) for (const m of nameIsDNSSubdomain(s.nodeName, false)) errs.push(invalid(child(path, 'nodeName'), s.nodeName, m));
  if (s.activeDeadlineSeconds !== undefined && s.activeDeadlineSeconds !== null) {
    const v = s.activeDeadlineSeconds;
    if (v < 1 || v > MAX_INT32) errs.push(invalid(child(path, 'activeDeadlineSeconds'), v, inclusiveRangeError(1, MAX_INT32)));
  }
  if (s.hostname) errs.push(...validateDNS1123Label(s.hostname, child(path, 'hostname')));
  if (s.subdomain) errs.push(...validateDNS1123Label(s.subdomain, child(path, 'subdomain')));
  if (s.tolerations?.length) errs.push(...validateTolerations(s.tolerations, child(path, 'tolerations')));
  if (s.priorityClassName) for (const m of nameIsDNSSubdomain(s.priorityClassName, false)) errs.push(invalid(child(path, 'priorityClassName'), s.priorityClassName, m));
  if (s.preemptionPolicy && s.preemptionPolicy !== 'PreemptLowerPriority' && s.preemptionPolicy !== 'Never') {
    errs.push(notSupported(child(path, 'preemptionPolicy'), s.preemptionPolicy, ['Never', 'PreemptLowerPriority']));
  }
  if (s.schedulerName) for (const m of nameIsDNSSubdomain(s.schedulerName, false)) errs.push(invalid(child(path, 'schedulerName'), s.schedulerName, m));
  return errs;
}

/** ValidatePodTemplateSpec (labels at `<path>.labels`, as upstream reports them). */
export function validatePodTemplateSpec(t: PodTemplateSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  errs.push(...validateLabels(t?.metadata?.labels, child(path, 'labels')));
  errs.push(...validateAnnotations(t?.metadata?.annotations, child(path, 'annotations')));
  errs.push(...validatePodSpec(t?.spec, child(path, 'spec')));
  if (t?.spec?.ephemeralContainers?.length) {
    errs.push(forbidden(child(path, 'spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
  }
  return errs;
}

function validatePodIPs(pod: Pod): FieldError[] {
  const errs: FieldError[] = [];
  const ips = pod.status?.podIPs ?? [];
  ips.forEach((ip, i) => {
    for (const m of isValidIP(ip.ip)) errs.push(invalid(index(child('status', 'podIPs'), i), ip.ip, m));
  });
  const seen = new Set<string>();
  ips.forEach((ip, i) => {
    if (seen.has(ip.ip)) errs.push(duplicate(index(child('status', 'podIPs'), i), ip.ip));
    seen.add(ip.ip);
  });
  return errs;
}

/** ValidatePodCreate. */
export function validatePod(pod: Pod): FieldError[] {
  const errs = validateObjectMeta(pod.metadata, true, nameIsDNSSubdomain);
  errs.push(...validatePodSpec(pod.spec, 'spec'));
  if (pod.spec?.ephemeralContainers?.length) errs.push(forbidden(child('spec', 'ephemeralContainers'), 'cannot be set on create'));
  errs.push(...validatePodIPs(pod));
  return errs;
}

const POD_UPDATE_FORBIDDEN =
  'pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)';

function validateContainerUpdates(next: Container[] | undefined, prev: Container[] | undefined, path: string): { errs: FieldError[]; stop: boolean } {
  const n = next ?? [];
  const o = prev ?? [];
  if (n.length !== o.length) return { errs: [forbidden(path, 'pod updates may not add or remove containers')], stop: true };
  const errs: FieldError[] = [];
  n.forEach((c, i) => {
    if (!c.image) errs.push(required(child(index(path, i), 'image')));
    if (c.image && c.image.trim().length !== c.image.length) {
      errs.push(invalid(child(index(path, i), 'image'), c.image, 'must not have leading or trailing whitespace'));
    }
  });
  return { errs, stop: false };
}

function validateOnlyAddedTolerations(next: Toleration[] | undefined, prev: Toleration[] | undefined, path: string): FieldError[] {
  for (const old of prev ?? []) {
    const found = (next ?? []).some((t) => deepEqual({ ...old, tolerationSeconds: t.tolerationSeconds }, t));
    if (!found) return [forbidden(path, 'existing toleration can not be modified except its tolerationSeconds')];
  }
  return validateTolerations(next, path);
}

/** ValidatePodUpdate: only images, activeDeadlineSeconds (decreasing), added tolerations and gates may change. */
export function validatePodUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata);
  errs.push(...validatePodSpec(pod.spec, 'spec'));
  const spec = pod.spec ?? { containers: [] };
  const oldSpec = old.spec ?? { containers: [] };
  for (const [f, label] of [
    ['containers', 'spec.containers'],
    ['initContainers', 'spec.initContainers'],
  ] as const) {
    const r = validateContainerUpdates(spec[f], oldSpec[f], label);
    errs.push(...r.errs);
    if (r.stop) return errs;
  }
  const ads = spec.activeDeadlineSeconds;
  const oldAds = oldSpec.activeDeadlineSeconds;
  if (ads !== undefined && ads !== null) {
    if (ads < 0 || ads > MAX_INT32) return [...errs, invalid('spec.activeDeadlineSeconds', ads, inclusiveRangeError(0, MAX_INT32))];
    if (oldAds !== undefined && oldAds !== null && oldAds < ads) {
      return [...errs, invalid('spec.activeDeadlineSeconds', ads, 'must be less than or equal to previous value')];
    }
  } else if (oldAds !== undefined && oldAds !== null) {
    errs.push(invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
  }
  errs.push(...validateOnlyAddedTolerations(spec.tolerations, oldSpec.tolerations, 'spec.tolerations'));
  const oldGates = oldSpec.schedulingGates ?? [];
  for (const g of spec.schedulingGates ?? []) {
    if (!oldGates.some((o) => o.name === g.name)) {
      errs.push(forbidden('spec.schedulingGates', "only deletion is allowed, but found new scheduling gate '" + g.name + "'"));
    }
  }
  if (deepEqual(spec, oldSpec)) return errs;
  const munged: PodSpec = JSON.parse(JSON.stringify(spec));
  munged.containers = (munged.containers ?? []).map((c, i) => ({ ...c, image: oldSpec.containers?.[i]?.image }));
  if (munged.initContainers) munged.initContainers = munged.initContainers.map((c, i) => ({ ...c, image: oldSpec.initContainers?.[i]?.image }));
  munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
  munged.schedulingGates = oldSpec.schedulingGates;
  munged.tolerations = oldSpec.tolerations;
  if ((oldSpec.terminationGracePeriodSeconds ?? 0) < 0 && munged.terminationGracePeriodSeconds === 1) {
    munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
  }
  if (oldGates.length > 0) {
    // Gated pods may gain node selector entries and affinity.
    munged.nodeSelector = oldSpec.nodeSelector;
    munged.affinity = oldSpec.affinity;
  }
  if (!deepEqual(munged, oldSpec)) {
    errs.push(forbidden('spec', `${POD_UPDATE_FORBIDDEN}\n${diffLines(oldSpec, munged).join('\n')}`));
  }
  return errs;
}

/**
 * ValidatePodEphemeralContainersUpdate (pods/ephemeralcontainers): the pod
 * as a whole stays valid, static pods take none, and the ephemeral containers
 * already there may be neither removed nor changed (only added to).
 */
export function validatePodEphemeralContainersUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata);
  errs.push(...validatePodSpec(pod.spec, 'spec'));
  if (old.metadata.annotations?.[ANNOTATION_CONFIG_MIRROR] !== undefined) return [forbidden('', 'static pods do not support ephemeral containers')];
  const path = child('spec', 'ephemeralContainers');
  const next = new Map((pod.spec?.ephemeralContainers ?? []).map((c) => [c.name, c]));
  for (const o of old.spec?.ephemeralContainers ?? []) {
    const n = next.get(o.name);
    if (!n) errs.push(forbidden(path, `existing ephemeral containers "${o.name}" may not be removed\n`));
    else if (!deepEqual(o, n)) errs.push(forbidden(path, `existing ephemeral containers "${o.name}" may not be changed\n${diffLines(o, n).join('\n')}`));
  }
  return errs;
}

function validateContainerStateTransition(next: ContainerStatus[] | undefined, prev: ContainerStatus[] | undefined, path: string, restartPolicy: string | undefined): FieldError[] {
  if (restartPolicy === 'Always' || restartPolicy === undefined) return [];
  const errs: FieldError[] = [];
  (prev ?? []).forEach((o, i) => {
    const term = o.state?.terminated;
    if (!term) return;
    if (term.exitCode !== 0 && restartPolicy === 'OnFailure') return;
    for (const n of next ?? []) {
      if (n.name === o.name && !n.state?.terminated) errs.push(forbidden(child(index(path, i), 'state'), 'may not be transitioned to non-terminated state'));
    }
  });
  return errs;
}

/** ValidatePodStatusUpdate: nodeName untouched, terminated containers stay terminated, IPs valid. */
export function validatePodStatusUpdate(pod: Pod, old: Pod): FieldError[] {
  const errs = validateObjectMetaUpdate(pod.metadata, old.metadata);
  if ((pod.spec?.nodeName ?? '') !== (old.spec?.nodeName ?? '')) errs.push(forbidden('status.nodeName', 'may not be changed directly'));
  const nn = pod.status?.nominatedNodeName;
  if (nn && nn !== old.status?.nominatedNodeName) {
    for (const m of nameIsDNSSubdomain(nn, false)) errs.push(invalid('status.nominatedNodeName', nn, m));
  }
  const rp = old.spec?.restartPolicy;
  errs.push(...validateContainerStateTransition(pod.status?.containerStatuses, old.status?.containerStatuses, 'status.containerStatuses', rp));
  errs.push(...validateContainerStateTransition(pod.status?.initContainerStatuses, old.status?.initContainerStatuses, 'status.initContainerStatuses', rp === 'Always' ? 'OnFailure' : rp));
  errs.push(...validatePodIPs(pod));
  if (pod.status?.podIP && pod.status.podIPs?.length && pod.status.podIPs[0]?.ip !== pod.status.podIP) {
    errs.push(invalid('status.podIPs[0].ip', pod.status.podIPs[0]?.ip ?? '', 'must be equal to podIP'));
  }
  return errs;
}

/** ValidatePodBinding. */
export function validateBinding(b: Binding): FieldError[] {
  const errs: FieldError[] = [];
  if (b.target?.kind && b.target.kind !== 'Node') errs.push(notSupported('target.kind', b.target.kind, ['Node', '<empty>']));
  if (!b.target?.name) errs.push(required('target.name'));
  return errs;
}

// ---------------------------------------------------------------- service

const isHeadless = (svc: Service): boolean => svc.spec?.clusterIP === 'None';

/** ValidateService. ClusterIP allocation and IP families are the apiserver's; addresses given must be valid. */
export function validateService(svc: Service): FieldError[] {
  const errs = validateObjectMeta(svc.metadata, true, nameIsDNS1035Label);
  const spec = svc.spec ?? {};
  const ports = spec.ports ?? [];
  if (ports.length === 0 && !isHeadless(svc) && spec.type !== 'ExternalName') errs.push(required('spec.ports'));
  if (spec.type === 'ExternalName') {
    if (spec.clusterIPs?.length && spec.clusterIPs[0] !== '') errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    const cname = (spec.externalName ?? '').replace(/\.$/, '');
    if (cname) errs.push(...validateDNS1123Subdomain(cname, 'spec.externalName'));
    else errs.push(required('spec.externalName'));
  }
  const names = new Set<string>();
  ports.forEach((sp, i) => {
    const p = index('spec.ports', i);
    if (ports.length > 1 && !sp.name) errs.push(required(child(p, 'name')));
    else if (sp.name) {
      errs.push(...validateDNS1123Label(sp.name, child(p, 'name')));
      if (names.has(sp.name)) errs.push(duplicate(child(p, 'name'), sp.name));
      else names.add(sp.name);
    }
    for (const m of isValidPortNum(sp.port)) errs.push(invalid(child(p, 'port'), sp.port, m));
    if (!sp.protocol) errs.push(required(child(p, 'protocol')));
    else if (!SUPPORTED_PORT_PROTOCOLS.includes(sp.protocol)) errs.push(notSupported(child(p, 'protocol'), sp.protocol, SUPPORTED_PORT_PROTOCOLS));
    errs.push(...validatePortNumOrName(sp.targetPort, child(p, 'targetPort')));
    if (sp.appProtocol) for (const m of isQualifiedName(sp.appProtocol)) errs.push(invalid(child(p, 'appProtocol'), sp.appProtocol, m));
  });
  if (spec.selector) errs.push(...validateLabels(spec.selector, 'spec.selector'));
  if (!spec.sessionAffinity) errs.push(required('spec.sessionAffinity'));
  else if (spec.sessionAffinity !== 'ClientIP' && spec.sessionAffinity !== 'None') {
    errs.push(notSupported('spec.sessionAffinity', spec.sessionAffinity, ['ClientIP', 'None']));
  }
  if (spec.sessionAffinity === 'ClientIP') {
    const t = spec.sessionAffinityConfig?.clientIP?.timeoutSeconds;
    if (t === undefined || t === null) errs.push(required('spec.sessionAffinityConfig.clientIP.timeoutSeconds'));
    else if (t <= 0 || t > 86400) errs.push(invalid('spec.sessionAffinityConfig.clientIP.timeoutSeconds', t, inclusiveRangeError(1, 86400)));
  } else if (spec.sessionAffinity === 'None' && spec.sessionAffinityConfig) {
    errs.push(forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }
  const ips = spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : []);
  ips.forEach((ip, i) => {
    if (ip === 'None' || ip === '') return;
    for (const m of isValidIP(ip)) errs.push(invalid(index('spec.clusterIPs', i), ip, m));
  });
  if (spec.clusterIP && spec.clusterIPs?.length && spec.clusterIPs[0] !== spec.clusterIP) {
    errs.push(invalid('spec.clusterIPs', spec.clusterIPs, 'first value must match `clusterIP`'));
  }
  (spec.externalIPs ?? []).forEach((ip, i) => {
    for (const m of isValidIP(ip)) errs.push(invalid(index('spec.externalIPs', i), ip, m));
  });
  const types = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
  if (!spec.type) errs.push(required('spec.type'));
  else if (!types.includes(spec.type)) errs.push(notSupported('spec.type', spec.type, types));
  if (spec.type === 'ClusterIP') {
    ports.forEach((sp, i) => {
      if (sp.nodePort) errs.push(forbidden(child(index('spec.ports', i), 'nodePort'), "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((sp, i) => {
    if (!sp.nodePort) return;
    const k = `${sp.protocol}/${sp.nodePort}`;
    if (nodePorts.has(k)) errs.push(duplicate(child(index('spec.ports', i), 'nodePort'), sp.nodePort));
    nodePorts.add(k);
  });
  const seenPorts = new Set<string>();
  ports.forEach((sp, i) => {
    const k = `${sp.protocol}/${sp.port}`;
    if (seenPorts.has(k)) errs.push(duplicate(index('spec.ports', i), goServicePortKey(sp)));
    seenPorts.add(k);
  });
  if (spec.internalTrafficPolicy && spec.internalTrafficPolicy !== 'Cluster' && spec.internalTrafficPolicy !== 'Local') {
    errs.push(notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, ['Cluster', 'Local']));
  }
  if (spec.type === 'ExternalName' || spec.type === 'ClusterIP') {
    if (spec.externalTrafficPolicy && !(spec.type === 'ClusterIP' && spec.externalIPs?.length)) {
      errs.push(invalid('spec.externalTrafficPolicy', spec.externalTrafficPolicy, 'may only be set for externally-accessible services'));
    }
  } else if (spec.externalTrafficPolicy && spec.externalTrafficPolicy !== 'Cluster' && spec.externalTrafficPolicy !== 'Local') {
    errs.push(notSupported('spec.externalTrafficPolicy', spec.externalTrafficPolicy, ['Cluster', 'Local']));
  }
  // validateServiceExternalTrafficPolicy: the health check port belongs to LoadBalancers with Local policy only.
  if (spec.healthCheckNodePort && !(spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local')) {
    errs.push(invalid('spec.healthCheckNodePort', spec.healthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  }
  return errs;
}

/** ValidateServiceUpdate: the primary cluster IP may not change (except to/from ExternalName). */
export function validateServiceUpdate(svc: Service, old: Service): FieldError[] {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata);
  const t = svc.spec?.type;
  const ot = old.spec?.type;
  if (t !== 'ExternalName' && ot !== 'ExternalName') {
    const oldIP = old.spec?.clusterIPs?.[0] ?? old.spec?.clusterIP;
    const newIPs = svc.spec?.clusterIPs ?? (svc.spec?.clusterIP ? [svc.spec.clusterIP] : []);
    if (oldIP && newIPs.length > 0 && newIPs[0] !== oldIP) errs.push(invalid('spec.clusterIPs[0]', newIPs, 'may not change once set'));
  }
  errs.push(...validateService(svc).filter((e) => !e.field.startsWith('metadata.')));
  return errs;
}

/** ValidateServiceStatusUpdate: load-balancer ingress addresses. */
export function validateServiceStatusUpdate(svc: Service, old: Service): FieldError[] {
  const errs = validateObjectMetaUpdate(svc.metadata, old.metadata);
  (svc.status?.loadBalancer?.ingress ?? []).forEach((ing, i) => {
    if (ing.ip) for (const m of isValidIP(ing.ip)) errs.push(invalid(child(index('status.loadBalancer.ingress', i), 'ip'), ing.ip, m));
    if (ing.hostname) {
      errs.push(...validateDNS1123Subdomain(ing.hostname, child(index('status.loadBalancer.ingress', i), 'hostname')));
      if (isIPv4(ing.hostname)) errs.push(invalid(child(index('status.loadBalancer.ingress', i), 'hostname'), ing.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

// ---------------------------------------------------------------- namespace, config, secrets, accounts

export function validateNamespace(ns: Namespace): FieldError[] {
  const errs = validateObjectMeta(ns.metadata, false, nameIsDNSLabel);
  for (const f of ns.spec?.finalizers ?? []) errs.push(...validateFinalizerName(f, 'spec.finalizers'));
  return errs;
}

export function validateNamespaceUpdate(ns: Namespace, old: Namespace): FieldError[] {
  return validateObjectMetaUpdate(ns.metadata, old.metadata);
}

/** ValidateNamespaceStatusUpdate: phase Active unless deleting, Terminating while deleting. */
export function validateNamespaceStatusUpdate(ns: Namespace, old: Namespace): FieldError[] {
  const errs = validateObjectMetaUpdate(ns.metadata, old.metadata);
  const phase = ns.status?.phase ?? '';
  if (!ns.metadata.deletionTimestamp) {
    if (phase !== 'Active') errs.push(invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty"));
  } else if (phase !== 'Terminating') {
    errs.push(invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
  }
  return errs;
}

const base64Length = (s: string): number => {
  const clean = s.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
};
export function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs = validateObjectMeta(cm.metadata, true, nameIsDNSSubdomain);
  let total = 0;
  for (const [k, v] of Object.entries(cm.data ?? {})) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(key('data', k), k, m));
    if (cm.binaryData && k in cm.binaryData) errs.push(invalid(key('data', k), k, 'duplicate of key present in binaryData'));
    total += utf8Length(String(v));
  }
  for (const [k, v] of Object.entries(cm.binaryData ?? {})) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(key('binaryData', k), k, m));
    total += base64Length(String(v));
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('', MAX_SECRET_SIZE));
  return errs;
}

function validateImmutableData(
  next: { immutable?: boolean; data?: unknown; binaryData?: unknown },
  prev: { immutable?: boolean; data?: unknown; binaryData?: unknown },
  fields: ('data' | 'binaryData')[],
): FieldError[] {
  if (!prev.immutable) return [];
  const errs: FieldError[] = [];
  if (!next.immutable) errs.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields) if (!deepEqual(next[f] ?? {}, prev[f] ?? {})) errs.push(forbidden(f, 'field is immutable when `immutable` is set'));
  return errs;
}

export function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  const errs = validateObjectMetaUpdate(cm.metadata, old.metadata);
  errs.push(...validateImmutableData(cm, old, ['data', 'binaryData']));
  errs.push(...validateConfigMap(cm).filter((e) => !e.field.startsWith('metadata.')));
  return errs;
}

/** ValidateSecret: keys, 1 MiB total, and the keys each well-known type requires. */
export function validateSecret(s: Secret): FieldError[] {
  const errs = validateObjectMeta(s.metadata, true, nameIsDNSSubdomain);
  let total = 0;
  const data = s.data ?? {};
  for (const [k, v] of Object.entries(data)) {
    for (const m of isConfigMapKey(k)) errs.push(invalid(key('data', k), k, m));
    total += base64Length(String(v));
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('data', MAX_SECRET_SIZE));
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(data, k);
  switch (s.type) {
    case 'kubernetes.io/service-account-token':
      if (!s.metadata.annotations?.['kubernetes.io/service-account.name']) {
        errs.push(required(key('metadata.annotations', 'kubernetes.io/service-account.name')));
      }
      break;
    case 'kubernetes.io/dockercfg':
      if (!has('.dockercfg')) errs.push(required(key('data', '.dockercfg')));
      break;
    case 'kubernetes.io/dockerconfigjson':
      if (!has('.dockerconfigjson')) errs.push(required(key('data', '.dockerconfigjson')));
      break;
    case 'kubernetes.io/basic-auth':
      if (!has('username') && !has('password')) errs.push(required(key('data', 'username')), required(key('data', 'password')));
      break;
    case 'kubernetes.io/ssh-auth':
      if (!data['ssh-privatekey']) errs.push(required(key('data', 'ssh-privatekey')));
      break;
    case 'kubernetes.io/tls':
      if (!has('tls.crt')) errs.push(required(key('data', 'tls.crt')));
      if (!has('tls.key')) errs.push(required(key('data', 'tls.key')));
      break;
    default:
      break;
  }
  return errs;
}

export function validateSecretUpdate(s: Secret, old: Secret): FieldError[] {
  const errs = validateObjectMetaUpdate(s.metadata, old.metadata);
  errs.push(...validateImmutableField(s.type ?? '', old.type ?? '', 'type'));
  errs.push(...validateImmutableData(s, old, ['data']));
  errs.push(...validateSecret(s).filter((e) => !e.field.startsWith('metadata.')));
  return errs;
}

export function validateServiceAccount(sa: ServiceAccount): FieldError[] {
  return validateObjectMeta(sa.metadata, true, nameIsDNSSubdomain);
}

// ---------------------------------------------------------------- node

/** ValidateNode: name, taints, capacity quantities, unique addresses, pod CIDRs. */
export function validateNode(node: Node): FieldError[] {
  const errs = validateObjectMeta(node.metadata, false, nameIsDNSSubdomain);
  if (node.spec?.taints?.length) errs.push(...validateTaints(node.spec.taints, 'metadata.taints'));
  for (const f of ['capacity', 'allocatable'] as const) {
    for (const [name, v] of Object.entries(node.status?.[f] ?? {})) {
      const p = key(child('status', f), name);
      const q = parseQuantityField(v, p, errs);
      if (q && q.sign() < 0) errs.push(invalid(p, q.toString(), IS_NEGATIVE_ERROR_MSG));
    }
  }
  const seen = new Set<string>();
  (node.status?.addresses ?? []).forEach((a, i) => {
    const k = `${a.type}/${a.address}`;
    if (seen.has(k)) errs.push(duplicate(index('status.addresses', i), goNodeAddress(a)));
    seen.add(k);
  });
  (node.spec?.podCIDRs ?? []).forEach((cidr, i) => {
    if (!isCIDR(cidr)) errs.push(invalid(index('spec.podCIDRs', i), cidr, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
  });
  if ((node.spec?.podCIDRs?.length ?? 0) > 2) errs.push(invalid('spec.podCIDRs', node.spec?.podCIDRs, 'may specify no more than one CIDR for each IP family'));
  return errs;
}

/** IsValidCIDR: an IPv4 network (read as everywhere else, by parseIpv4Cidr) or an IPv6 address with a prefix of at most 128. */
export function isCIDR(s: string): boolean {
  if (parseIpv4Cidr(s) !== undefined) return true;
  const [ip, bits, ...rest] = s.split('/');
  if (rest.length || ip === undefined || bits === undefined || !/^[0-9]+$/.test(bits)) return false;
  return isIPv6(ip) && Number(bits) <= 128;
}

/** ValidateNodeUpdate: podCIDRs and providerID are write-once. */
export function validateNodeUpdate(node: Node, old: Node): FieldError[] {
  const errs = validateObjectMetaUpdate(node.metadata, old.metadata);
  errs.push(...validateNode(node).filter((e) => !e.field.startsWith('metadata.') || e.field.startsWith('metadata.taints')));
  const oldCIDRs = old.spec?.podCIDRs ?? [];
  const newCIDRs = node.spec?.podCIDRs ?? [];
  if (oldCIDRs.length > 0 && !deepEqual(oldCIDRs, newCIDRs)) {
    errs.push(forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
  }
  if (old.spec?.providerID && old.spec.providerID !== node.spec?.providerID) {
    errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
  }
  return errs;
}

// ---------------------------------------------------------------- events, endpoints

/** legacyValidateEvent (core/v1 events): the namespace must match involvedObject's. */
export function validateEvent(ev: Event): FieldError[] {
  const errs = validateObjectMeta(ev.metadata, true, nameIsDNSSubdomain);
  const ns = ev.metadata.namespace ?? '';
  const ions = ev.involvedObject?.namespace ?? '';
  if (!ev.eventTime) {
    if (!ions) {
      if (ns !== '' && ns !== 'default') errs.push(invalid('involvedObject.namespace', ions, 'does not match event.namespace'));
    } else if (ns !== ions) {
      errs.push(invalid('involvedObject.namespace', ions, 'does not match event.namespace'));
    }
  } else {
    if (!ions && ns !== 'default' && ns !== 'kube-system') errs.push(invalid('involvedObject.namespace', ions, 'does not match event.namespace'));
    if (!ev.reportingComponent) errs.push(required('reportingComponent'));
    else for (const m of isQualifiedName(ev.reportingComponent)) errs.push(invalid('reportingComponent', ev.reportingComponent, m));
    if (!ev.reportingInstance) errs.push(required('reportingInstance'));
    else if (ev.reportingInstance.length > 128) errs.push(invalid('reportingInstance', '', 'can have at most 128 characters'));
    if (!ev.action) errs.push(required('action'));
    else if (ev.action.length > 128) errs.push(invalid('action', '', 'can have at most 128 characters'));
    if (!ev.reason) errs.push(required('reason'));
    else if (ev.reason.length > 128) errs.push(invalid('reason', '', 'can have at most 128 characters'));
    if ((ev.message?.length ?? 0) > 1024) errs.push(invalid('message', '', 'can have at most 1024 characters'));
  }
  return errs;
}

export function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs = validateObjectMeta(ep.metadata, true, nameIsDNSSubdomain);
  (ep.subsets ?? []).forEach((ss, i) => {
    const p = index('subsets', i);
    if (!ss.addresses?.length && !ss.notReadyAddresses?.length) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
    for (const f of ['addresses', 'notReadyAddresses'] as const) {
      (ss[f] ?? []).forEach((a, ai) => {
        for (const m of isValidIP(a.ip)) errs.push(invalid(child(index(child(p, f), ai), 'ip'), a.ip, m));
      });
    }
    const ports = ss.ports ?? [];
    ports.forEach((port, pi) => {
      const pp = index(child(p, 'ports'), pi);
      if (ports.length > 1 && !port.name) errs.push(required(child(pp, 'name')));
      else if (port.name) errs.push(...validateDNS1123Label(port.name, child(pp, 'name')));
      for (const m of isValidPortNum(port.port)) errs.push(invalid(child(pp, 'port'), port.port, m));
      if (!port.protocol) errs.push(required(child(pp, 'protocol')));
      else if (!SUPPORTED_PORT_PROTOCOLS.includes(port.protocol)) errs.push(notSupported(child(pp, 'protocol'), port.protocol, SUPPORTED_PORT_PROTOCOLS));
    });
  });
  return errs;
}
