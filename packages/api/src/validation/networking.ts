// networking.k8s.io/v1 validation (pkg/apis/networking/validation): NetworkPolicy.
import type { FieldError } from '../meta/status.js';
import { ipv4CidrContains, parseIpv4Cidr } from '../net/ipv4.js';
import type { IPBlock, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from '../networking/v1/types.js';
import { isCIDR } from './core.js';
import { child, forbidden, goValue, index, invalid, notSupported, required } from './field.js';
import { nameIsDNSSubdomain, validateLabelSelector, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';
import { isValidPortName, isValidPortNum } from './strings.js';

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
