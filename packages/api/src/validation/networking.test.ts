import { describe, expect, it } from 'vitest';
import type { Ingress, IngressClass, IngressRule, IngressSpec, NetworkPolicy, NetworkPolicySpec } from '../index.js';
import { setDefaults, validateObject } from '../index.js';
import { fieldErrorMessage } from '../meta/status.js';

const messages = (errs: ReturnType<typeof validateObject>): string[] => errs.map((e) => `${e.field}: ${fieldErrorMessage(e)}`);
const np = (spec: Partial<NetworkPolicySpec>): NetworkPolicy => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'NetworkPolicy',
  metadata: { name: 'web', namespace: 'default' },
  spec: { podSelector: {}, ...spec },
});

describe('NetworkPolicy validation (pkg/apis/networking/validation)', () => {
  it.each([
    ['default deny', {}, []],
    ['allow from a label on a named port', { ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ port: 'http' }] }] }, []],
    ['a port range', { egress: [{ ports: [{ port: 32000, endPort: 32768 }] }] }, []],
    ['an unknown protocol', { ingress: [{ ports: [{ protocol: 'ICMP', port: 80 }] }] }, ['spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"']],
    ['port 0', { ingress: [{ ports: [{ port: 0 }] }] }, ['spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive']],
    ['endPort below port', { ingress: [{ ports: [{ port: 90, endPort: 80 }] }] }, ['spec.ingress[0].ports[0].endPort: Invalid value: 90: must be greater than or equal to `port`']],
    ['endPort after a named port', { ingress: [{ ports: [{ port: 'http', endPort: 80 }] }] }, ['spec.ingress[0].ports[0].endPort: Invalid value: 80: may not be specified when `port` is non-numeric']],
    ['endPort without port', { egress: [{ ports: [{ endPort: 80 }] }] }, ['spec.egress[0].ports[0].endPort: Invalid value: 80: may not be specified when `port` is not specified']],
    ['an empty peer', { ingress: [{ from: [{}] }] }, ['spec.ingress[0].from[0]: Required value: must specify a peer']],
    ['ipBlock with a selector', { egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }] }] }, ['spec.egress[0].to[0]: Forbidden: may not specify both ipBlock and another peer']],
    [
      'a malformed cidr',
      { ingress: [{ from: [{ ipBlock: { cidr: '10.0.0/8' } }] }] },
      ['spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "10.0.0/8": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'],
    ],
    [
      'except outside cidr, and except equal to it',
      { ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.18.1.0/24', '172.17.0.0/16', '172.17.1.0/24'] } }] }] },
      [
        'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "172.18.1.0/24": must be a strict subset of `cidr`',
        'spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: "172.17.0.0/16": must be a strict subset of `cidr`',
      ],
    ],
    ['an unknown policy type', { policyTypes: ['Ingress', 'Sideways'] }, ['spec.policyTypes[1]: Unsupported value: "Sideways": supported values: "Ingress", "Egress"']],
    [
      'three policy types',
      { policyTypes: ['Ingress', 'Egress', 'Ingress'] },
      ['spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes'],
    ],
  ] as [string, Partial<NetworkPolicySpec>, string[]][])('%s', (_name, spec, want) => {
    expect(messages(validateObject(np(spec)))).toEqual(want);
  });
});

describe('NetworkPolicy defaults (SetDefaults_NetworkPolicy)', () => {
  it.each([
    ['no rules: Ingress', {}, ['Ingress']],
    ['egress rules: Ingress and Egress', { egress: [{}] }, ['Ingress', 'Egress']],
    ['given types are kept', { policyTypes: ['Egress'] }, ['Egress']],
  ] as [string, Partial<NetworkPolicySpec>, string[]][])('%s', (_name, spec, want) => {
    const o = np(spec);
    setDefaults(o);
    expect(o.spec?.policyTypes).toEqual(want);
  });

  it('ports default to TCP', () => {
    const o = np({ ingress: [{ ports: [{ port: 80 }, { protocol: 'UDP', port: 53 }] }] });
    setDefaults(o);
    expect(o.spec?.ingress?.[0]?.ports).toEqual([
      { protocol: 'TCP', port: 80 },
      { protocol: 'UDP', port: 53 },
    ]);
  });
});

const ing = (spec: Partial<IngressSpec>, annotations?: Record<string, string>): Ingress => ({
  apiVersion: 'networking.k8s.io/v1',
  kind: 'Ingress',
  metadata: { name: 'shop', namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec: spec as IngressSpec,
});
const svc = (name: string, port: { name?: string; number?: number }) => ({ service: { name, port } });
const rule = (host: string | undefined, paths: unknown[]) => ({ ...(host !== undefined ? { host } : {}), http: { paths } }) as IngressRule;

describe('Ingress validation (pkg/apis/networking/validation)', () => {
  it.each<[string, Partial<IngressSpec>, string[]]>([
    ['a host with a Prefix path', { rules: [rule('shop.example.com', [{ path: '/', pathType: 'Prefix', backend: svc('web', { number: 80 }) }])] }, []],
    [
      'a wildcard host, a named port, TLS',
      { tls: [{ hosts: ['*.example.com'], secretName: 'shop-tls' }], rules: [rule('*.example.com', [{ path: '/api', pathType: 'Exact', backend: svc('api', { name: 'http' }) }])] },
      [],
    ],
    ['only a default backend', { defaultBackend: svc('web', { number: 80 }) }, []],
    ['neither rules nor a default backend', {}, ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']],
    ['no pathType', { rules: [rule('a.example.com', [{ path: '/', backend: svc('web', { number: 80 }) }])] }, ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified']],
    [
      'an unknown pathType',
      { rules: [rule(undefined, [{ path: '/', pathType: 'Regex', backend: svc('web', { number: 80 }) }])] },
      ['spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"'],
    ],
    [
      'a relative Prefix path',
      { rules: [rule(undefined, [{ path: 'cart', pathType: 'Prefix', backend: svc('web', { number: 80 }) }])] },
      ['spec.rules[0].http.paths[0].path: Invalid value: "cart": must be an absolute path'],
    ],
    [
      'dot segments',
      { rules: [rule(undefined, [{ path: '/a/../b/.', pathType: 'Exact', backend: svc('web', { number: 80 }) }])] },
      ['spec.rules[0].http.paths[0].path: Invalid value: "/a/../b/.": must not contain \'/../\'', 'spec.rules[0].http.paths[0].path: Invalid value: "/a/../b/.": cannot end with \'/.\''],
    ],
    [
      'an IP as host',
      { rules: [rule('10.0.0.1', [{ path: '/', pathType: 'Prefix', backend: svc('web', { number: 80 }) }])] },
      ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address'],
    ],
    [
      'a wildcard not first',
      { rules: [rule('shop.*.com', [{ path: '/', pathType: 'Prefix', backend: svc('web', { number: 80 }) }])] },
      [
        "spec.rules[0].host: Invalid value: \"shop.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ['no paths', { rules: [rule('a.example.com', [])] }, ['spec.rules[0].http.paths: Required value']],
    ['a backend without a port', { defaultBackend: svc('web', {}) }, ['spec.defaultBackend: Required value: port name or number is required']],
    ['a port by name and number', { defaultBackend: svc('web', { name: 'http', number: 80 }) }, ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']],
    [
      'a Service name that is not a DNS-1035 label',
      { defaultBackend: svc('1web', { number: 80 }) },
      [
        "spec.defaultBackend.service.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    ['no backend at all', { defaultBackend: {} }, ['spec.defaultBackend: Invalid value: "": resource or service backend is required']],
    [
      'a service and a resource',
      { defaultBackend: { ...svc('web', { number: 80 }), resource: { kind: 'Bucket', name: 'b' } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends'],
    ],
  ])('%s', (_name, spec, want) => {
    expect(messages(validateObject(ing(spec)))).toEqual(want);
  });

  it('the legacy class annotation must match ingressClassName', () => {
    const obj = ing({ ingressClassName: 'nginx', defaultBackend: svc('web', { number: 80 }) }, { 'kubernetes.io/ingress.class': 'traefik' });
    expect(messages(validateObject(obj))).toEqual(['annotations.kubernetes.io/ingress.class: Invalid value: "traefik": must match `ingressClassName` when both are specified']);
  });
});

describe('IngressClass validation', () => {
  const cls = (spec: Record<string, unknown>): IngressClass => ({ apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: 'nginx' }, spec });
  it.each<[string, Record<string, unknown>, string[]]>([
    ['a controller', { controller: 'k8s.io/ingress-nginx' }, []],
    ['none', {}, ['spec.controller: Required value']],
    ['not domain-prefixed', { controller: 'nginx' }, ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']],
    ['parameters without a scope', { controller: 'k8s.io/ingress-nginx', parameters: { kind: 'Params', name: 'p' } }, ['spec.parameters.scope: Required value']],
    [
      'Namespace scope without a namespace',
      { controller: 'k8s.io/ingress-nginx', parameters: { kind: 'Params', name: 'p', scope: 'Namespace' } },
      ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
    ],
  ])('%s', (_name, spec, want) => {
    expect(messages(validateObject(cls(spec)))).toEqual(want);
  });

  it('the controller is immutable', () => {
    const old = { ...cls({ controller: 'k8s.io/ingress-nginx' }), metadata: { name: 'nginx', resourceVersion: '7' } };
    expect(messages(validateObject({ ...old, spec: { controller: 'example.com/traefik' } } as IngressClass, old))).toEqual([
      'spec.controller: Invalid value: "example.com/traefik": field is immutable',
    ]);
  });
});
