import { describe, expect, it } from 'vitest';
import type { NetworkPolicy, NetworkPolicySpec } from '../index.js';
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
