// networking.k8s.io/v1 NetworkPolicy (k8s.io/api/networking/v1 types.go): which traffic the selected pods accept and send.
import type { IntOrString, KubeObject, LabelSelector, ObjectMeta } from '../../meta/types.js';

/** Ingress or Egress: which direction a policy isolates its pods in. */
export type PolicyType = 'Ingress' | 'Egress';
export const POLICY_TYPES: readonly PolicyType[] = ['Ingress', 'Egress'];

export interface IPBlock {
  /** A network, e.g. 192.168.1.0/24. */
  cidr: string;
  /** Networks inside cidr that the rule leaves out. */
  except?: string[];
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: IPBlock;
}

export interface NetworkPolicyPort {
  /** TCP (default), UDP or SCTP. */
  protocol?: string;
  /** A number, or a container port's name resolved on each pod. */
  port?: IntOrString;
  /** With a numeric port: the last port of a range. */
  endPort?: number;
}

export interface NetworkPolicyIngressRule {
  ports?: NetworkPolicyPort[];
  from?: NetworkPolicyPeer[];
}

export interface NetworkPolicyEgressRule {
  ports?: NetworkPolicyPort[];
  to?: NetworkPolicyPeer[];
}

export interface NetworkPolicySpec {
  podSelector: LabelSelector;
  ingress?: NetworkPolicyIngressRule[];
  egress?: NetworkPolicyEgressRule[];
  policyTypes?: string[];
}

export interface NetworkPolicy extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'NetworkPolicy';
  metadata: ObjectMeta;
  spec?: NetworkPolicySpec;
}

// ---------------------------------------------------------------- Ingress (networking.k8s.io/v1 types.go)

/** How an Ingress path matches a request's path. */
export type PathType = 'Exact' | 'Prefix' | 'ImplementationSpecific';
export const PATH_TYPES: readonly PathType[] = ['Exact', 'ImplementationSpecific', 'Prefix'];

export interface ServiceBackendPort {
  /** A named port of the Service (not with number). */
  name?: string;
  number?: number;
}

export interface IngressServiceBackend {
  name: string;
  port?: ServiceBackendPort;
}

export interface IngressBackend {
  service?: IngressServiceBackend;
  resource?: { apiGroup?: string; kind: string; name: string };
}

export interface HTTPIngressPath {
  path?: string;
  pathType?: PathType;
  backend: IngressBackend;
}

export interface HTTPIngressRuleValue {
  paths: HTTPIngressPath[];
}

export interface IngressRule {
  /** A DNS name, or `*.` and one; absent: every host. */
  host?: string;
  http?: HTTPIngressRuleValue;
}

export interface IngressTLS {
  hosts?: string[];
  secretName?: string;
}

export interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: IngressTLS[];
  rules?: IngressRule[];
}

export interface IngressPortStatus {
  port: number;
  protocol: string;
  error?: string;
}

export interface IngressLoadBalancerIngress {
  ip?: string;
  hostname?: string;
  ports?: IngressPortStatus[];
}

export interface IngressStatus {
  loadBalancer?: { ingress?: IngressLoadBalancerIngress[] };
}

/** Routes HTTP(S) from outside the cluster to Services; an ingress controller (none here) carries it out. */
export interface Ingress extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'Ingress';
  metadata: ObjectMeta;
  spec?: IngressSpec;
  status?: IngressStatus;
}

export interface IngressClassParametersReference {
  apiGroup?: string;
  kind: string;
  name: string;
  /** Cluster (default) or Namespace. */
  scope?: string;
  namespace?: string;
}

export interface IngressClassSpec {
  /** The controller that carries out Ingresses of this class, e.g. `k8s.io/ingress-nginx`. */
  controller?: string;
  parameters?: IngressClassParametersReference;
}

/** The annotation that makes an IngressClass the default for Ingresses that name none. */
export const DEFAULT_INGRESS_CLASS_ANNOTATION = 'ingressclass.kubernetes.io/is-default-class';

export interface IngressClass extends KubeObject {
  apiVersion?: 'networking.k8s.io/v1';
  kind?: 'IngressClass';
  metadata: ObjectMeta;
  spec?: IngressClassSpec;
}
