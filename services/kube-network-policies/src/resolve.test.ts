import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lab, pod, policy } from './testing/fixtures.js';
import { decisionInput, type PeerEntry, type PortSpec } from './resolve.js';
import { POLICIES_FILE, writePolicyDecisionInput } from './socket-lb.js';
import type { NetworkPolicy } from '@kubelab/api';

const WEB = '10.244.1.10';
const OTHER = '10.244.1.11';
const CLIENT = '10.244.2.20';
const DB = '10.244.2.30';

const denyAll = policy('default', 'default-deny', { policyTypes: ['Ingress'] });
const allowClient = policy('default', 'allow-client', {
  podSelector: { matchLabels: { app: 'web' } },
  ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ protocol: 'TCP', port: 'http' }] }],
});

describe("the connect hook's policy input (every pod's resolved allow lists)", () => {
  /** A pod's allow list with each peer set's entries in place of its name. */
  type Expanded = { peers?: PeerEntry[]; ports?: PortSpec[] }[];
  const expanded = (policies: NetworkPolicy[], dir: 'ingress' | 'egress', ip: string): Expanded | undefined => {
    const input = decisionInput({ ...lab(), policies });
    return input[dir][ip]?.map((a) => ({ ...(a.peers ? { peers: input.peers[a.peers] } : {}), ...(a.ports ? { ports: a.ports } : {}) }));
  };
  it.each<[string, NetworkPolicy[], 'ingress' | 'egress', string, Expanded | undefined]>([
    ['no policy: not isolated', [], 'ingress', WEB, undefined],
    ['default deny ingress: isolated, nothing allowed', [denyAll], 'ingress', WEB, []],
    ['default deny ingress isolates every pod of the namespace', [denyAll], 'ingress', CLIENT, []],
    ['default deny ingress leaves other namespaces alone', [denyAll], 'ingress', DB, undefined],
    ['default deny ingress does not isolate egress', [denyAll], 'egress', WEB, undefined],
    ['allow app=client on the named port: its IP, the port resolved on web', [denyAll, allowClient], 'ingress', WEB, [{ peers: [CLIENT], ports: [{ protocol: 'TCP', port: 80 }] }]],
    ['a pod the allow policy does not select stays denied', [denyAll, allowClient], 'ingress', OTHER, []],
    ['a named port the pod lacks allows nothing', [policy('default', 'p', { ingress: [{ ports: [{ port: 'metrics' }] }] })], 'ingress', OTHER, []],
    [
      'namespaceSelector: the pods of the selected namespaces',
      [policy('default', 'ns', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { env: 'prod' } } }] }] })],
      'ingress',
      WEB,
      [{ peers: [DB] }],
    ],
    [
      'namespaceSelector with podSelector: both must match',
      [policy('default', 'both', { podSelector: { matchLabels: { app: 'web' } }, ingress: [{ from: [{ namespaceSelector: {}, podSelector: { matchLabels: { app: 'client' } } }] }] })],
      'ingress',
      WEB,
      [{ peers: [CLIENT] }],
    ],
    [
      'ipBlock with except and a port range',
      [
        policy('default', 'ipb', {
          podSelector: { matchLabels: { app: 'web' } },
          ingress: [{ from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }], ports: [{ port: 30000, endPort: 30100 }] }],
        }),
      ],
      'ingress',
      WEB,
      [{ peers: [{ cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] }], ports: [{ protocol: 'TCP', port: 30000, endPort: 30100 }] }],
    ],
    ['a rule without peers or ports allows everything', [policy('default', 'all', { ingress: [{}] })], 'ingress', WEB, [{}]],
    [
      'egress: named ports resolved on each destination pod, DNS to anywhere',
      [
        policy('default', 'web-egress', {
          podSelector: { matchLabels: { app: 'web' } },
          policyTypes: ['Egress'],
          egress: [{ to: [{ namespaceSelector: { matchLabels: { env: 'prod' } } }], ports: [{ protocol: 'TCP', port: 'pg' }] }, { ports: [{ protocol: 'UDP', port: 53 }] }],
        }),
      ],
      'egress',
      WEB,
      [{ peers: [{ cidr: `${DB}/32`, ports: [{ protocol: 'TCP', port: 5432 }] }] }, { peers: [{ cidr: '0.0.0.0/0', ports: [{ protocol: 'UDP', port: 53 }] }] }],
    ],
    ['default deny egress', [policy('default', 'deny-egress', { policyTypes: ['Egress'] })], 'egress', CLIENT, []],
  ])('%s', (_name, policies, dir, ip, want) => {
    expect(expanded(policies, dir, ip)).toEqual(want);
  });

  it("shares a rule's peer set among the pods its policy selects", () => {
    const input = decisionInput({ ...lab(), policies: [policy('default', 'from-db', { ingress: [{ from: [{ namespaceSelector: { matchLabels: { env: 'prod' } } }] }] })] });
    expect(input.peers).toEqual({ 'ingress/default/from-db/0': [DB] });
    expect(input.ingress[WEB]).toEqual([{ peers: 'ingress/default/from-db/0' }]);
    expect(input.ingress[OTHER]).toEqual([{ peers: 'ingress/default/from-db/0' }]);
  });

  it('leaves out hostNetwork pods and pods without an address', () => {
    const host = pod('default', 'host', '10.0.0.5', 'node-1', {});
    host.spec!.hostNetwork = true;
    const input = decisionInput({ namespaces: lab().namespaces, pods: [...lab().pods, host, pod('default', 'pending', '', 'node-1', {})], policies: [denyAll] });
    expect(Object.keys(input.ingress).sort()).toEqual([WEB, OTHER, CLIENT]);
  });

  it('is written to policies.json by rename, and not again while unchanged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'knp-'));
    try {
      const last = { text: '' };
      const input = decisionInput({ ...lab(), policies: [denyAll] });
      expect(writePolicyDecisionInput(dir, input, last)).toBe(true);
      expect(JSON.parse(readFileSync(join(dir, POLICIES_FILE), 'utf8'))).toEqual(input);
      expect(writePolicyDecisionInput(dir, input, last)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
