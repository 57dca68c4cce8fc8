// The schema of networking.k8s.io/v1 NetworkPolicy (k8s.io/api/networking/v1 types.go).

import { top, type TypeDef } from './definition.js';

export const NETWORKING_TYPES: Record<string, TypeDef> = {
  NetworkPolicy: {
    group: 'networking',
    description: 'A NetworkPolicy says which network traffic the pods it selects may receive and send.',
    fields: top({
      spec: ['NetworkPolicySpec', 'The desired behaviour of the policy.'],
    }),
  },
  NetworkPolicySpec: {
    group: 'networking',
    description: 'What a NetworkPolicy selects and allows.',
    fields: {
      podSelector: ['LabelSelector', 'The pods of the namespace the policy applies to; an empty selector selects them all.', { required: true }],
      ingress: [
        '[]NetworkPolicyIngressRule',
        'Traffic the selected pods accept, any rule matching being enough; none: the pods accept nothing (when Ingress is a policy type).',
        { listType: 'atomic' },
      ],
      egress: ['[]NetworkPolicyEgressRule', 'Traffic the selected pods may send, any rule matching being enough; none: the pods send nothing (when Egress is a policy type).', { listType: 'atomic' }],
      policyTypes: ['[]string', 'Ingress, Egress or both: the directions the policy isolates; default: Ingress, plus Egress when there are egress rules.', { listType: 'atomic' }],
    },
  },
  NetworkPolicyIngressRule: {
    group: 'networking',
    description: 'Traffic allowed in when it comes from one of the peers and to one of the ports.',
    fields: {
      ports: ['[]NetworkPolicyPort', 'The ports reachable; empty or absent: every port.', { listType: 'atomic' }],
      from: ['[]NetworkPolicyPeer', 'The sources allowed; empty or absent: every source.', { listType: 'atomic' }],
    },
  },
  NetworkPolicyEgressRule: {
    group: 'networking',
    description: 'Traffic allowed out when it goes to one of the peers and to one of the ports.',
    fields: {
      ports: ['[]NetworkPolicyPort', 'The destination ports allowed; empty or absent: every port.', { listType: 'atomic' }],
      to: ['[]NetworkPolicyPeer', 'The destinations allowed; empty or absent: every destination.', { listType: 'atomic' }],
    },
  },
  NetworkPolicyPeer: {
    group: 'networking',
    description: 'A set of pods (by pod and namespace labels) or a block of addresses.',
    fields: {
      podSelector: ['LabelSelector', "Pods by label, in the policy's namespace unless namespaceSelector is also set."],
      namespaceSelector: ['LabelSelector', 'Namespaces by label: all their pods, or those podSelector selects.'],
      ipBlock: ['IPBlock', 'A network; may not be combined with the selectors.'],
    },
  },
  NetworkPolicyPort: {
    group: 'networking',
    description: 'A port, or range of ports, and a protocol.',
    fields: {
      protocol: ['string', 'TCP, UDP or SCTP; default TCP.'],
      port: ['IntOrString', 'A port number, or the name of a container port of the selected pod; absent: every port.'],
      endPort: ['int32', 'The last port of the range starting at port (a number).'],
    },
  },
  IPBlock: {
    group: 'networking',
    description: 'A network (e.g. 192.168.1.0/24) less the networks inside it that except names.',
    fields: {
      cidr: ['string', 'The network, e.g. 192.168.1.0/24.', { required: true }],
      except: ['[]string', 'Networks inside cidr left out of the block.', { listType: 'atomic' }],
    },
  },
};
