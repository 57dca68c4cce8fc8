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
