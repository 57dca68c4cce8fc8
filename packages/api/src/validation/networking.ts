// networking.k8s.io/v1 validation (pkg/apis/networking/validation): NetworkPolicy, Ingress, IngressClass.
import type { FieldError } from '../meta/status.js';
import { ipv4CidrContains, parseIpv4Cidr } from '../net/ipv4.js';
import {
  PATH_TYPES,
  type HTTPIngressPath,
  type IngressBackend,
  type Ingress,
  type IngressClass,
  type IPBlock,
  type NetworkPolicy,
  type NetworkPolicyPeer,
  type NetworkPolicyPort,
} from '../networking/v1/types.js';
import { isCIDR } from './core.js';
import { child, forbidden, goValue, index, invalid, notSupported, required, tooLong } from './field.js';
import { nameIsDNS1035Label, nameIsDNSSubdomain, pathSegmentName, validateImmutableField, validateLabelSelector, validateNamespaceName, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';
import { isDNS1123Subdomain, isDomainPrefixedPath, isValidIP, isValidPortName, isValidPortNum, isWildcardDNS1123Subdomain } from './strings.js';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];
const CIDR_DETAIL = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

/** ValidateNetworkPolicyPort: protocol, port number or name, endPort only after a numeric port. */
function validatePort(port: NetworkPolicyPort, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && port.protocol !== null && !PROTOCOLS.includes(port.protocol)) errs.push(notSupported(child(path, 'protocol'), port.protocol, PROTOCOLS));
  const endPort = port.endPort ?? undefined;
  if (port.port === undefined || port.port === null) {
    if (endPort !== undefined) errs.push(invalid(child(path, 'endPort'), endPort, 'may not be specified when `port` is not specified'));
  } else if (typeof port.port === 'number') {
    for (const m of isValidPortNum(port.port)) errs.push(invalid(child(path, 'port'), port.port, m));
    if (endPort !== undefined) {
      if (endPort < port.port) errs.push(invalid(child(path, 'endPort'), port.port, 'must be greater than or equal to `port`'));
      for (const m of isValidPortNum(endPort)) errs.push(invalid(child(path, 'endPort'), endPort, m));
    }
  } else {
    if (endPort !== undefined) errs.push(invalid(child(path, 'endPort'), endPort, 'may not be specified when `port` is non-numeric'));
    for (const m of isValidPortName(port.port)) errs.push(invalid(child(path, 'port'), port.port, m));
  }
  return errs;
}

/** ValidateIPBlock: a CIDR, and each except a strict subset of it. */
function validateIPBlock(block: IPBlock, path: string): FieldError[] {
  if (!block.cidr) return [required(child(path, 'cidr'))];
  const errs: FieldError[] = [];
  if (!isCIDR(block.cidr)) errs.push(invalid(child(path, 'cidr'), block.cidr, CIDR_DETAIL));
  if (!isCIDR(block.cidr)) return errs;
  const outer = parseIpv4Cidr(block.cidr);
  (block.except ?? []).forEach((text, i) => {
    const p = index(child(path, 'except'), i);
    if (!isCIDR(text)) {
      errs.push(invalid(p, text, CIDR_DETAIL));
      return;
    }
    const inner = parseIpv4Cidr(text);
    // IPv6 blocks are accepted as written; kubelab's pod network is IPv4 only.
    if (!outer || !inner) return;
    if (!ipv4CidrContains(outer, inner.base) || outer.prefix >= inner.prefix) errs.push(invalid(p, text, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

/** ValidateNetworkPolicyPeer: at least one of the three; ipBlock alone. */
function validatePeer(peer: NetworkPolicyPeer, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let n = 0;
  if (peer.podSelector) {
    n++;
    errs.push(...validateLabelSelector(peer.podSelector, child(path, 'podSelector')));
  }
  if (peer.namespaceSelector) {
    n++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, child(path, 'namespaceSelector')));
  }
  if (peer.ipBlock) {
    n++;
    errs.push(...validateIPBlock(peer.ipBlock, child(path, 'ipBlock')));
  }
  if (n === 0) errs.push(required(path, 'must specify a peer'));
  else if (n > 1 && peer.ipBlock) errs.push(forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

export function validateNetworkPolicySpec(np: NetworkPolicy, path = 'spec'): FieldError[] {
  const spec = np.spec;
  if (!spec) return [];
  const errs = validateLabelSelector(spec.podSelector, child(path, 'podSelector'));
  (spec.ingress ?? []).forEach((rule, i) => {
    const p = index(child(path, 'ingress'), i);
    (rule?.ports ?? []).forEach((port, j) => errs.push(...validatePort(port ?? {}, index(child(p, 'ports'), j))));
    (rule?.from ?? []).forEach((peer, j) => errs.push(...validatePeer(peer ?? {}, index(child(p, 'from'), j))));
  });
  (spec.egress ?? []).forEach((rule, i) => {
    const p = index(child(path, 'egress'), i);
    (rule?.to ?? []).forEach((peer, j) => errs.push(...validatePeer(peer ?? {}, index(child(p, 'to'), j))));
    (rule?.ports ?? []).forEach((port, j) => errs.push(...validatePort(port ?? {}, index(child(p, 'ports'), j))));
  });
  const types = spec.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) {
    errs.push(invalid(child(path, 'policyTypes'), goValue(`[]networking.PolicyType{${types.map((t) => JSON.stringify(t)).join(', ')}}`), 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(t)) errs.push(notSupported(index(child(path, 'policyTypes'), i), t, POLICY_TYPES));
  });
  return errs;
}

export function validateNetworkPolicy(np: NetworkPolicy): FieldError[] {
  return [...validateObjectMeta(np.metadata, true, nameIsDNSSubdomain), ...validateNetworkPolicySpec(np)];
}

/** ValidateNetworkPolicyUpdate: the spec may change; it is validated as on create. */
export function validateNetworkPolicyUpdate(np: NetworkPolicy, old: NetworkPolicy): FieldError[] {
  return [...validateObjectMetaUpdate(np.metadata, old.metadata), ...validateNetworkPolicySpec(np)];
}

// ---------------------------------------------------------------- Ingress

/** The annotation older clients set instead of spec.ingressClassName. */
const INGRESS_CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];
const MAX_LEN_INGRESS_CLASS_CONTROLLER = 250;
const PARAMETER_SCOPES = ['Cluster', 'Namespace'];

/** validateIngressBackend: a service (a DNS-1035 name and a port by name or number) or a resource, not both. */
function validateIngressBackend(backend: IngressBackend | undefined, path: string): FieldError[] {
  const b = backend ?? {};
  if (b.resource && b.service) return [invalid(path, '', 'cannot set both resource and service backends')];
  const errs: FieldError[] = [];
  if (b.resource) {
    const r = b.resource;
    const p = child(path, 'resource');
    if (r.apiGroup !== undefined && r.apiGroup !== null) for (const m of isDNS1123Subdomain(r.apiGroup)) errs.push(invalid(child(p, 'apiGroup'), r.apiGroup, m));
    if (!r.kind) errs.push(required(child(p, 'kind')));
    else for (const m of pathSegmentName(r.kind, false)) errs.push(invalid(child(p, 'kind'), r.kind, m));
    if (!r.name) errs.push(required(child(p, 'name')));
    else for (const m of pathSegmentName(r.name, false)) errs.push(invalid(child(p, 'name'), r.name, m));
    return errs;
  }
  if (!b.service) return [invalid(path, '', 'resource or service backend is required')];
  const svc = b.service;
  if (!svc.name) errs.push(required(child(path, 'service', 'name')));
  else for (const m of nameIsDNS1035Label(svc.name, false)) errs.push(invalid(child(path, 'service', 'name'), svc.name, m));
  const name = svc.port?.name ?? '';
  const number = svc.port?.number ?? 0;
  if (name && number) errs.push(invalid(path, '', 'cannot set both port name & port number'));
  else if (name) for (const m of isValidPortName(name)) errs.push(invalid(child(path, 'service', 'port', 'name'), name, m));
  else if (number) for (const m of isValidPortNum(number)) errs.push(invalid(child(path, 'service', 'port', 'number'), number, m));
  else errs.push(required(path, 'port name or number is required'));
  return errs;
}

/** validateHTTPIngressPath: a pathType, an absolute path without dot segments or encoded slashes for Exact and Prefix, a backend. */
function validateHTTPIngressPath(p: HTTPIngressPath, path: string): FieldError[] {
  if (!p.pathType) return [required(child(path, 'pathType'), 'pathType must be specified')];
  const errs: FieldError[] = [];
  const value = p.path ?? '';
  if (p.pathType === 'Exact' || p.pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(invalid(child(path, 'path'), value, 'must be an absolute path'));
    if (value) {
      for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(invalid(child(path, 'path'), value, `must not contain '${seq}'`));
      for (const suffix of INVALID_PATH_SUFFIXES) if (value.endsWith(suffix)) errs.push(invalid(child(path, 'path'), value, `cannot end with '${suffix}'`));
    }
  } else if (p.pathType === 'ImplementationSpecific') {
    if (value && !value.startsWith('/')) errs.push(invalid(child(path, 'path'), value, 'must be an absolute path'));
  } else {
    errs.push(notSupported(child(path, 'pathType'), p.pathType, PATH_TYPES));
  }
  return [...errs, ...validateIngressBackend(p.backend, child(path, 'backend'))];
}

/** ValidateIngressSpec: a default backend or rules; hosts DNS names (a wildcard as its first label), never IPs; TLS hosts and Secret names; the class name. */
export function validateIngressSpec(ing: Ingress, path = 'spec'): FieldError[] {
  const spec = ing.spec ?? {};
  const rules = spec.rules ?? [];
  const errs: FieldError[] = [];
  if (rules.length === 0 && !spec.defaultBackend) errs.push(invalid(path, goValue('[]networking.IngressRule(nil)'), 'either `defaultBackend` or `rules` must be specified'));
  if (spec.defaultBackend) errs.push(...validateIngressBackend(spec.defaultBackend, child(path, 'defaultBackend')));
  rules.forEach((rule, i) => {
    const p = index(child(path, 'rules'), i);
    const host = rule?.host ?? '';
    if (host) {
      if (isValidIP(host).length === 0) errs.push(invalid(child(p, 'host'), host, 'must be a DNS name, not an IP address'));
      for (const m of host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host)) errs.push(invalid(child(p, 'host'), host, m));
    }
    if (rule?.http) {
      const paths = rule.http.paths ?? [];
      if (paths.length === 0) errs.push(required(child(p, 'http', 'paths')));
      paths.forEach((hp, j) => errs.push(...validateHTTPIngressPath(hp ?? ({} as HTTPIngressPath), index(child(p, 'http', 'paths'), j))));
    }
  });
  (spec.tls ?? []).forEach((tls, i) => {
    const p = index(child(path, 'tls'), i);
    (tls?.hosts ?? []).forEach((host, j) => {
      for (const m of host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host)) errs.push(invalid(index(child(p, 'hosts'), j), host, m));
    });
    const secret = tls?.secretName ?? '';
    if (secret) for (const m of nameIsDNSSubdomain(secret, false)) errs.push(invalid(child(p, 'secretName'), secret, m));
  });
  const cls = spec.ingressClassName;
  if (cls !== undefined && cls !== null) for (const m of nameIsDNSSubdomain(cls, false)) errs.push(invalid(child(path, 'ingressClassName'), cls, m));
  return errs;
}

/** ValidateIngressCreate: metadata, the spec, and the legacy class annotation agreeing with ingressClassName. */
export function validateIngress(ing: Ingress): FieldError[] {
  const errs = [...validateObjectMeta(ing.metadata, true, nameIsDNSSubdomain), ...validateIngressSpec(ing)];
  const annotation = ing.metadata.annotations?.[INGRESS_CLASS_ANNOTATION];
  const cls = ing.spec?.ingressClassName;
  if (annotation !== undefined && cls !== undefined && cls !== null && annotation !== cls) {
    errs.push(invalid(child('annotations', INGRESS_CLASS_ANNOTATION), annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

export function validateIngressUpdate(ing: Ingress, old: Ingress): FieldError[] {
  return [...validateObjectMetaUpdate(ing.metadata, old.metadata), ...validateObjectMeta(ing.metadata, true, nameIsDNSSubdomain), ...validateIngressSpec(ing)];
}

/** ValidateIngressStatusUpdate: each load-balancer address an IP, or a DNS name that is not an IP. */
export function validateIngressStatusUpdate(ing: Ingress, old: Ingress): FieldError[] {
  const errs = validateObjectMetaUpdate(ing.metadata, old.metadata);
  (ing.status?.loadBalancer?.ingress ?? []).forEach((lb, i) => {
    const p = index('status.loadBalancer.ingress', i);
    if (lb?.ip) for (const m of isValidIP(lb.ip)) errs.push(invalid(child(p, 'ip'), lb.ip, m));
    if (lb?.hostname) {
      for (const m of isDNS1123Subdomain(lb.hostname)) errs.push(invalid(child(p, 'hostname'), lb.hostname, m));
      if (isValidIP(lb.hostname).length === 0) errs.push(invalid(child(p, 'hostname'), lb.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}

// ---------------------------------------------------------------- IngressClass

/** validateIngressClassSpec: a domain-prefixed controller of at most 250 characters; parameters with kind, name and a scope. */
function validateIngressClassSpec(cls: IngressClass, path = 'spec'): FieldError[] {
  const spec = cls.spec ?? {};
  const errs: FieldError[] = [];
  const controller = spec.controller ?? '';
  if (!controller) errs.push(required(child(path, 'controller')));
  else {
    if (controller.length > MAX_LEN_INGRESS_CLASS_CONTROLLER) errs.push(tooLong(child(path, 'controller'), MAX_LEN_INGRESS_CLASS_CONTROLLER));
    for (const [value, m] of isDomainPrefixedPath(controller)) errs.push(invalid(child(path, 'controller'), value, m));
  }
  const params = spec.parameters;
  if (!params) return errs;
  const p = child(path, 'parameters');
  if (params.apiGroup !== undefined && params.apiGroup !== null) for (const m of isDNS1123Subdomain(params.apiGroup)) errs.push(invalid(child(p, 'apiGroup'), params.apiGroup, m));
  if (!params.kind) errs.push(required(child(p, 'kind')));
  else for (const m of pathSegmentName(params.kind, false)) errs.push(invalid(child(p, 'kind'), params.kind, m));
  if (!params.name) errs.push(required(child(p, 'name')));
  else for (const m of pathSegmentName(params.name, false)) errs.push(invalid(child(p, 'name'), params.name, m));
  if (params.scope === undefined || params.scope === null) return [...errs, required(child(p, 'scope'))];
  if (!PARAMETER_SCOPES.includes(params.scope)) errs.push(notSupported(child(p, 'scope'), params.scope, PARAMETER_SCOPES));
  else if (params.scope === 'Namespace') {
    if (params.namespace === undefined || params.namespace === null) errs.push(required(child(p, 'namespace'), "`parameters.scope` is set to 'Namespace'"));
    else for (const m of validateNamespaceName(params.namespace, false)) errs.push(invalid(child(p, 'namespace'), params.namespace, m));
  } else if (params.namespace !== undefined && params.namespace !== null) errs.push(forbidden(child(p, 'namespace'), "`parameters.scope` is set to 'Cluster'"));
  return errs;
}

export function validateIngressClass(cls: IngressClass): FieldError[] {
  return [...validateObjectMeta(cls.metadata, false, nameIsDNSSubdomain), ...validateIngressClassSpec(cls)];
}

/** ValidateIngressClassUpdate: the controller is immutable. */
export function validateIngressClassUpdate(cls: IngressClass, old: IngressClass): FieldError[] {
  return [...validateObjectMetaUpdate(cls.metadata, old.metadata), ...validateImmutableField(cls.spec?.controller, old.spec?.controller, 'spec.controller'), ...validateIngressClass(cls)];
}
