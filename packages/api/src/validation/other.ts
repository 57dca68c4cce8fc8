// Validation for discovery.k8s.io/v1 EndpointSlice, coordination.k8s.io/v1
// Lease and autoscaling/v1 Scale, as their upstream validation packages.
import type { Scale } from '../autoscaling/v1/types.js';
import type { Lease } from '../coordination/v1/types.js';
import type { EndpointSlice } from '../discovery/v1/types.js';
import type { FieldError } from '../meta/status.js';
import { child, duplicate, index, invalid, notSupported, required, tooMany } from './field.js';
import { IS_NEGATIVE_ERROR_MSG, nameIsDNSSubdomain, validateDNS1123Label, validateImmutableField, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';
import { isDNS1123Subdomain, isIPv4, isIPv6, isQualifiedName } from './strings.js';

const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;

export function validateEndpointSlice(es: EndpointSlice): FieldError[] {
  const errs = validateObjectMeta(es.metadata, true, nameIsDNSSubdomain);
  const types = ['FQDN', 'IPv4', 'IPv6'];
  if (!es.addressType) errs.push(required('addressType'));
  else if (!types.includes(es.addressType)) errs.push(notSupported('addressType', es.addressType, types));
  const endpoints = es.endpoints ?? [];
  if (endpoints.length > MAX_ENDPOINTS) errs.push(tooMany('endpoints', endpoints.length, MAX_ENDPOINTS));
  endpoints.forEach((ep, i) => {
    const p = index('endpoints', i);
    const ap = child(p, 'addresses');
    const addrs = ep.addresses ?? [];
    if (addrs.length === 0) errs.push(required(ap, 'must contain at least 1 address'));
    else if (addrs.length > MAX_ADDRESSES) errs.push(tooMany(ap, addrs.length, MAX_ADDRESSES));
    addrs.forEach((a, ai) => {
      if (es.addressType === 'IPv4' && !isIPv4(a)) errs.push(invalid(index(ap, ai), a, 'must be a valid IPv4 address'));
      if (es.addressType === 'IPv6' && !isIPv6(a)) errs.push(invalid(index(ap, ai), a, 'must be a valid IPv6 address'));
      if (es.addressType === 'FQDN') for (const m of isDNS1123Subdomain(a)) errs.push(invalid(index(ap, ai), a, m));
    });
    if (ep.nodeName) for (const m of nameIsDNSSubdomain(ep.nodeName, false)) errs.push(invalid(child(p, 'nodeName'), ep.nodeName, m));
    if (ep.hostname) errs.push(...validateDNS1123Label(ep.hostname, child(p, 'hostname')));
  });
  const ports = es.ports ?? [];
  if (ports.length > MAX_PORTS) errs.push(tooMany('ports', ports.length, MAX_PORTS));
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = index('ports', i);
    const name = port.name ?? '';
    if (name) errs.push(...validateDNS1123Label(name, child(p, 'name')));
    if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
    else names.add(name);
    if (!port.protocol) errs.push(required(child(p, 'protocol')));
    else if (!['SCTP', 'TCP', 'UDP'].includes(port.protocol)) errs.push(notSupported(child(p, 'protocol'), port.protocol, ['SCTP', 'TCP', 'UDP']));
    if (port.appProtocol) for (const m of isQualifiedName(port.appProtocol)) errs.push(invalid(child(p, 'appProtocol'), port.appProtocol, m));
  });
  return errs;
}

export function validateEndpointSliceUpdate(es: EndpointSlice, old: EndpointSlice): FieldError[] {
  return [
    ...validateObjectMetaUpdate(es.metadata, old.metadata),
    ...validateEndpointSlice(es).filter((e) => !e.field.startsWith('metadata.')),
    ...validateImmutableField(es.addressType, old.addressType, 'addressType'),
  ];
}

export function validateLease(l: Lease): FieldError[] {
  const errs = validateObjectMeta(l.metadata, true, nameIsDNSSubdomain);
  const d = l.spec?.leaseDurationSeconds;
  if (d !== undefined && d !== null && d <= 0) errs.push(invalid('spec.leaseDurationSeconds', d, 'must be greater than 0'));
  const t = l.spec?.leaseTransitions;
  if (t !== undefined && t !== null && t < 0) errs.push(invalid('spec.leaseTransitions', t, IS_NEGATIVE_ERROR_MSG));
  return errs;
}

export function validateScale(s: Scale): FieldError[] {
  const errs = validateObjectMeta(s.metadata, true, nameIsDNSSubdomain);
  const r = s.spec?.replicas;
  if (r !== undefined && r !== null && r < 0) errs.push(invalid('spec.replicas', r, IS_NEGATIVE_ERROR_MSG));
  return errs;
}
