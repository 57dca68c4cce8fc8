// The schema of networking.k8s.io/v1 NetworkPolicy, Ingress and IngressClass (k8s.io/api/networking/v1 types.go).

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
  Ingress: {
    group: 'networking',
    description: 'An Ingress routes HTTP and HTTPS from outside the cluster to Services, by host and path; an ingress controller carries it out.',
    fields: top({
      spec: ['IngressSpec', 'The desired routes.'],
      status: ['IngressStatus', 'Where the ingress controller serves it.'],
    }),
  },
  IngressSpec: {
    group: 'networking',
    description: 'The routes of an Ingress.',
    fields: {
      ingressClassName: ['string', 'The IngressClass whose controller carries it out.'],
      defaultBackend: ['IngressBackend', 'Where requests no rule matches go.'],
      tls: ['[]IngressTLS', 'Hosts served over TLS on 443, with their certificates.', { listType: 'atomic' }],
      rules: ['[]IngressRule', 'Host rules; absent or unmatched: the default backend.', { listType: 'atomic' }],
    },
  },
  IngressBackend: {
    group: 'networking',
    description: 'A Service port, or another resource, that requests go to.',
    fields: { service: ['IngressServiceBackend', 'A Service of the namespace.'], resource: ['TypedLocalObjectReference', 'Another resource of the namespace.'] },
  },
  IngressServiceBackend: {
    group: 'networking',
    description: 'A Service and one of its ports.',
    fields: { name: ['string', 'The Service.', { required: true }], port: ['ServiceBackendPort', 'Its port, by name or number.'] },
  },
  ServiceBackendPort: {
    group: 'networking',
    description: 'A Service port, by name or by number.',
    fields: { name: ['string', 'The port name.'], number: ['int32', 'The port number.'] },
  },
  IngressRule: {
    group: 'networking',
    description: 'The paths of one host (all hosts when host is absent).',
    fields: { host: ['string', 'A DNS name, or a wildcard name such as *.example.com.'], http: ['HTTPIngressRuleValue', 'The HTTP paths.'] },
  },
  HTTPIngressRuleValue: {
    group: 'networking',
    description: 'HTTP paths and their backends.',
    fields: { paths: ['[]HTTPIngressPath', 'The paths.', { required: true, listType: 'atomic' }] },
  },
  HTTPIngressPath: {
    group: 'networking',
    description: 'A path and where requests matching it go.',
    fields: {
      path: ['string', 'Matched against the request path; must start with /.'],
      pathType: ['string', 'Exact, Prefix or ImplementationSpecific.', { required: true }],
      backend: ['IngressBackend', 'Where matching requests go.', { required: true }],
    },
  },
  IngressTLS: {
    group: 'networking',
    description: 'Hosts served over TLS and the Secret holding their certificate.',
    fields: { hosts: ['[]string', 'The hosts.', { listType: 'atomic' }], secretName: ['string', 'A kubernetes.io/tls Secret of the namespace.'] },
  },
  IngressStatus: {
    group: 'networking',
    description: 'Where the Ingress is served.',
    fields: { loadBalancer: ['IngressLoadBalancerStatus', 'The load balancer in front of it.'] },
  },
  IngressLoadBalancerStatus: {
    group: 'networking',
    description: 'The addresses of a load balancer.',
    fields: { ingress: ['[]IngressLoadBalancerIngress', 'Its addresses.', { listType: 'atomic' }] },
  },
  IngressLoadBalancerIngress: {
    group: 'networking',
    description: 'One address of a load balancer.',
    fields: { ip: ['string', 'An IP address.'], hostname: ['string', 'A DNS name.'], ports: ['[]IngressPortStatus', 'Its ports.', { listType: 'atomic' }] },
  },
  IngressPortStatus: {
    group: 'networking',
    description: 'A port of a load balancer and any problem with it.',
    fields: { port: ['int32', 'The port.', { required: true }], protocol: ['string', 'TCP, UDP or SCTP.', { required: true }], error: ['string', 'What is wrong with it.'] },
  },
  IngressClass: {
    group: 'networking',
    description: 'An IngressClass names the controller that carries out the Ingresses of the class; the ingressclass.kubernetes.io/is-default-class annotation makes it the default.',
    fields: top({ spec: ['IngressClassSpec', 'The controller and its parameters.'] }),
  },
  IngressClassSpec: {
    group: 'networking',
    description: 'The controller of a class.',
    fields: {
      controller: ['string', 'A domain-prefixed path, e.g. k8s.io/ingress-nginx; immutable.'],
      parameters: ['IngressClassParametersReference', 'A resource holding the controller parameters.'],
    },
  },
  IngressClassParametersReference: {
    group: 'networking',
    description: 'A cluster or namespace resource holding parameters.',
    fields: {
      apiGroup: ['string', 'Its API group.'],
      kind: ['string', 'Its kind.', { required: true }],
      name: ['string', 'Its name.', { required: true }],
      scope: ['string', 'Cluster or Namespace.'],
      namespace: ['string', 'Its namespace, when scope is Namespace.'],
    },
  },
};
