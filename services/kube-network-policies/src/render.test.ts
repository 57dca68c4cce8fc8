import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { lab, pod, policy } from './testing/fixtures.js';
import { parseSaved, policyChainName, renderPolicies, restoreInput, toIptablesSave, type PolicyInputs } from './render.js';

const golden = (name: string) => readFileSync(new URL(`./testdata/${name}`, import.meta.url), 'utf8');
const render = (policies: PolicyInputs['policies'], node = 'node-1') => renderPolicies({ nodeName: node, clusterCIDR: '10.244.0.0/16', ...lab(), policies });
/** A chain's rules by what it is for. */
const rulesOf = (rs: ReturnType<typeof render>, what: string) => rs.chains.find((c) => c.name === policyChainName(what))?.rules;

const allowClient = policy('default', 'allow-client', {
  podSelector: { matchLabels: { app: 'web' } },
  ingress: [{ from: [{ podSelector: { matchLabels: { app: 'client' } } }], ports: [{ protocol: 'TCP', port: 'http' }] }],
});
const denyAll = policy('default', 'default-deny', { policyTypes: ['Ingress'] });

describe('renderPolicies', () => {
  it('no policy: no pod is isolated, only the dispatch chains', () => {
    const rs = render([]);
    expect(rs.isolated).toEqual({ ingress: 0, egress: 0 });
    expect(rs.chains.map((c) => c.name)).toEqual(['KUBE-NWPLCY-INGRESS', 'KUBE-NWPLCY-EGRESS']);
  });

  it('the classic lab (default deny + allow app=client on the named port) renders the golden ruleset', () => {
    const text = toIptablesSave(render([denyAll, allowClient]));
    expect(text).toBe(golden('lab.iptables-save.golden.txt'));
  });

  it('default deny: every local pod of the namespace drops what no rule allows', () => {
    const rs = render([denyAll]);
    expect(rs.isolated).toEqual({ ingress: 2, egress: 0 });
    expect(rulesOf(rs, 'pod-ingress/default/web')).toEqual(['-m comment --comment "default/web has no NetworkPolicy allowing this ingress" -j DROP']);
  });

  it('namespaceSelector, both selectors, and ipBlock with except', () => {
    const rs = render([
      policy('default', 'mixed', {
        podSelector: { matchLabels: { app: 'web' } },
        ingress: [
          { from: [{ namespaceSelector: { matchLabels: { env: 'prod' } } }] },
          { from: [{ namespaceSelector: {}, podSelector: { matchLabels: { app: 'client' } } }] },
          {
            from: [{ ipBlock: { cidr: '172.17.0.0/16', except: ['172.17.1.0/24'] } }],
            ports: [
              { protocol: 'UDP', port: 53 },
              { port: 30000, endPort: 30100 },
            ],
          },
        ],
      }),
    ]);
    expect(rulesOf(rs, 'ingress/default/mixed/0')).toEqual(['-s 10.244.2.30/32 -j ACCEPT']);
    expect(rulesOf(rs, 'ingress/default/mixed/1')).toEqual(['-s 10.244.2.20/32 -j ACCEPT']);
    const ipb = policyChainName('ingress/default/mixed/2/ipblock/0');
    expect(rulesOf(rs, 'ingress/default/mixed/2')).toEqual([`-s 172.17.0.0/16 -j ${ipb}`]);
    expect(rulesOf(rs, 'ingress/default/mixed/2/ipblock/0')).toEqual(['-s 172.17.1.0/24 -j RETURN', '-s 172.17.0.0/16 -j ACCEPT']);
    expect(rulesOf(rs, 'pod-ingress/default/web')).toEqual([
      `-m comment --comment "default/mixed ingress rule 0" -j ${policyChainName('ingress/default/mixed/0')}`,
      `-m comment --comment "default/mixed ingress rule 1" -j ${policyChainName('ingress/default/mixed/1')}`,
      `-p udp -m udp --dport 53 -m comment --comment "default/mixed ingress rule 2" -j ${policyChainName('ingress/default/mixed/2')}`,
      `-p tcp -m tcp --dport 30000:30100 -m comment --comment "default/mixed ingress rule 2" -j ${policyChainName('ingress/default/mixed/2')}`,
      '-m comment --comment "default/web has no NetworkPolicy allowing this ingress" -j DROP',
    ]);
  });

  it('egress: peers with their ports, named ports resolved on each destination pod, replies allowed first', () => {
    const rs = render([
      policy('default', 'web-egress', {
        podSelector: { matchLabels: { app: 'web' } },
        policyTypes: ['Egress'],
        egress: [{ to: [{ namespaceSelector: { matchLabels: { env: 'prod' } } }], ports: [{ protocol: 'TCP', port: 'pg' }] }, { ports: [{ protocol: 'UDP', port: 53 }] }],
      }),
    ]);
    expect(rs.isolated).toEqual({ ingress: 0, egress: 1 });
    expect(rs.chains[1]!.rules).toEqual([
      '-m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
      `-s 10.244.1.10/32 -m comment --comment "default/web egress" -j ${policyChainName('pod-egress/default/web')}`,
    ]);
    expect(rulesOf(rs, 'egress/default/web-egress/0')).toEqual(['-d 10.244.2.30/32 -p tcp -m tcp --dport 5432 -j ACCEPT']);
    expect(rulesOf(rs, 'egress/default/web-egress/1')).toEqual(['-p udp -m udp --dport 53 -j ACCEPT']);
  });

  it('a named port no container of the pod has allows nothing on that pod', () => {
    const rs = render([policy('default', 'p', { ingress: [{ ports: [{ port: 'metrics' }] }] })]);
    expect(rulesOf(rs, 'pod-ingress/default/web')).toEqual(['-m comment --comment "default/web has no NetworkPolicy allowing this ingress" -j DROP']);
  });

  it('pods of other nodes, hostNetwork pods and pods without an IP are not enforced here', () => {
    const host = pod('default', 'host', '10.0.0.5', 'node-1', {});
    host.spec!.hostNetwork = true;
    const pending = pod('default', 'pending', '', 'node-1', {});
    const rs = renderPolicies({ nodeName: 'node-1', clusterCIDR: '10.244.0.0/16', namespaces: lab().namespaces, pods: [...lab().pods, host, pending], policies: [denyAll] });
    expect(rs.chains[0]!.rules.filter((r) => r.startsWith('-d')).map((r) => r.split(' ')[1])).toEqual(['10.244.1.11/32', '10.244.1.10/32']);
    expect(
      render([denyAll], 'node-2')
        .chains[0]!.rules.filter((r) => r.startsWith('-d'))
        .map((r) => r.split(' ')[1]),
    ).toEqual(['10.244.2.20/32']);
  });

  it('restore input: declares (flushes) our chains, deletes stale ones, inserts only missing jumps', () => {
    const rs = render([denyAll]);
    const saved = parseSaved('*filter\n:KUBE-NWPLCY-OLD - [0:0]\n-A INPUT -m comment --comment "kubernetes network policies" -j KUBE-NWPLCY-INGRESS\nCOMMIT\n');
    const script = restoreInput(
      rs,
      saved.chains.filter((c) => !rs.chains.some((x) => x.name === c)),
      saved.jumps,
    );
    expect(script).toContain(':KUBE-NWPLCY-OLD - [0:0]\n');
    expect(script).toContain('-X KUBE-NWPLCY-OLD\n');
    expect(script.split('\n').filter((l) => l.startsWith('-I'))).toEqual([
      '-I OUTPUT 1 -m comment --comment "kubernetes network policies" -j KUBE-NWPLCY-EGRESS',
      '-I FORWARD 1 -m comment --comment "kubernetes network policies" -j KUBE-NWPLCY-INGRESS',
      '-I FORWARD 1 -m comment --comment "kubernetes network policies" -j KUBE-NWPLCY-EGRESS',
    ]);
  });
});
