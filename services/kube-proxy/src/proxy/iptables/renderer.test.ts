import { describe, expect, it } from 'vitest';
import { golden } from '../../testing/golden.js';
import { makeService, makeSlice, scenario } from '../../testing/fixtures.js';
import { buildSnapshot } from '../changetracker.js';
import { defaultProxyConfig } from '../types.js';
import { parseRestore } from './parse.js';
import { probability, renderIptables, LARGE_CLUSTER_ENDPOINTS_THRESHOLD } from './renderer.js';
import { normalizeSaveOutput, toIptablesSave } from './save.js';
import { traceNat } from './trace.js';

const BUILTIN_TARGETS = new Set(['ACCEPT', 'DROP', 'REJECT', 'RETURN', 'DNAT', 'SNAT', 'MASQUERADE', 'MARK']);
const BUILTIN_CHAINS = new Set(['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING']);

/**
 * Upstream's assertIPTablesRulesEqual: every jump target exists, and the two
 * rulesets hold the same rules per chain in the same order (chain order and
 * line grouping may differ). Fails with a readable diff.
 */
function expectRulesetsEqual(got: string, want: string): void {
  const g = parseRestore(got);
  const w = parseRestore(want);
  for (const [name, t] of g) {
    const chains = new Set([...t.chains.map((c) => c.name), ...BUILTIN_CHAINS]);
    for (const r of t.rules) {
      if (r.target && !BUILTIN_TARGETS.has(r.target)) expect(chains.has(r.target), `${name}: ${r.chain} jumps to undeclared ${r.target}`).toBe(true);
    }
  }
  const byChain = (text: string) => {
    const out: Record<string, string[]> = {};
    let table = '';
    for (const line of text.split('\n')) {
      if (line.startsWith('*')) table = line;
      else if (line.startsWith(':')) out[`${table} ${line.split(' ')[0]}`] ??= [];
      else if (line.startsWith('-A ')) (out[`${table} :${line.split(' ')[1]}`] ??= []).push(line);
    }
    return out;
  };
  expect(byChain(got)).toEqual(byChain(want));
  void w;
}

const snap = () => {
  const s = scenario();
  return buildSnapshot(s.services, s.slices, 'node-1');
};

describe('renderIptables', () => {
  it('renders the hand-checked ruleset for 0, 1 and 3 endpoints, named ports, NodePort, affinity and terminating endpoints', () => {
    const rs = renderIptables(snap(), defaultProxyConfig());
    expectRulesetsEqual(rs.restore, golden('iptables-restore.golden.txt'));
    expect(rs.restore).toBe(golden('iptables-restore.golden.txt'));
    expect(rs.ruleCount).toEqual({ filter: 5, nat: 44 });
  });

  it('prints exactly what iptables-save printed after applying it (iptables 1.8.9)', () => {
    const rs = renderIptables(snap(), defaultProxyConfig());
    expect(normalizeSaveOutput(toIptablesSave(rs))).toBe(normalizeSaveOutput(golden('iptables-save.golden.txt')));
  });

  it('formats probabilities as upstream (%0.10f of 1/n)', () => {
    expect([2, 3, 4, 7, 10].map(probability)).toEqual(['0.5000000000', '0.3333333333', '0.2500000000', '0.1428571429', '0.1000000000']);
  });

  it('balances n endpoints with probabilities 1/n, 1/(n-1), ..., and a last rule without statistic', () => {
    const eps = Array.from({ length: 5 }, (_, i) => ({ ip: `10.244.0.${i + 1}` }));
    const s = buildSnapshot([makeService('ns', 'five', '10.96.1.1', [{ port: 80, protocol: 'TCP' }])], [makeSlice('ns', 'five', [{ port: 80 }], eps)], 'n');
    const lines = renderIptables(s, defaultProxyConfig())
      .restore.split('\n')
      .filter((l) => l.includes('-> 10.244.0.'));
    expect(lines.map((l) => /--probability (\S+)/.exec(l)?.[1] ?? 'last')).toEqual(['0.2000000000', '0.2500000000', '0.3333333333', '0.5000000000', 'last']);
  });

  it('masquerades every ClusterIP packet with masqueradeAll', () => {
    const rs = renderIptables(snap(), defaultProxyConfig({ masqueradeAll: true }));
    expect(rs.restore).toContain('-A KUBE-SVC-CDGGSHYLG3RE2FKL -m comment --comment "default/web:http cluster IP" -m tcp -p tcp -d 10.96.0.10 --dport 80 -j KUBE-MARK-MASQ\n');
  });

  it('deletes stale service chains it finds in the kernel, and only those', () => {
    const rs = renderIptables(snap(), defaultProxyConfig(), { existingNatChains: ['KUBE-SVC-GONEGONEGONEGONE', 'KUBE-SEP-CGYQQPYWHTNLFZ4E', 'DOCKER', 'KUBE-SEP-OLDOLDOLDOLDOLDO'] });
    expect(rs.deletedChains).toEqual(['KUBE-SVC-GONEGONEGONEGONE', 'KUBE-SEP-OLDOLDOLDOLDOLDO']);
    expect(rs.restore).toContain(':KUBE-SVC-GONEGONEGONEGONE - [0:0]\n');
    expect(rs.restore).toContain('\n-X KUBE-SVC-GONEGONEGONEGONE\n');
    expect(rs.restore).not.toContain('-X DOCKER');
    expect(rs.ruleCount.nat).toBe(44);
  });

  it('renders a ruleset with more lines than a function call takes arguments (no stack overflow)', () => {
    const svc = buildSnapshot([makeService('ns', 'huge', '10.96.1.1', [{ port: 80, protocol: 'TCP' }])], [], 'n').services[0]!;
    const endpoints = Array.from({ length: 70_000 }, (_, k) => {
      const ip = `10.${244 + (k >> 16)}.${(k >> 8) & 255}.${k & 255}`;
      return { ip, port: 80, endpoint: `${ip}:80`, ready: true, serving: true, terminating: false, isLocal: false };
    });
    const rs = renderIptables({ services: [svc], endpoints: new Map([[svc.name, endpoints]]) }, defaultProxyConfig());
    expect(rs.ruleCount.nat).toBeGreaterThan(200_000);
  });

  it('drops per-endpoint comments above the large-cluster threshold, as upstream', () => {
    const n = LARGE_CLUSTER_ENDPOINTS_THRESHOLD + 1;
    const eps = Array.from({ length: n }, (_, i) => ({ ip: `10.244.${Math.floor(i / 250)}.${(i % 250) + 1}` }));
    const s = buildSnapshot([makeService('ns', 'big', '10.96.1.1', [{ port: 80, protocol: 'TCP' }])], [makeSlice('ns', 'big', [{ port: 80 }], eps)], 'n');
    const lines = renderIptables(s, defaultProxyConfig()).restore.split('\n');
    expect(lines.find((l) => l.startsWith('-A KUBE-SEP-') && l.includes('DNAT'))).toMatch(/^-A KUBE-SEP-\w+ -m tcp -p tcp -j DNAT --to-destination 10\.244\./);
    expect(lines.find((l) => l.startsWith('-A KUBE-SERVICES -m comment --comment "ns/big cluster IP"'))).toBeDefined();
  });
});

describe('packet tracer over the rendered rules', () => {
  // Traced over the iptables-save form, jumps from PREROUTING/OUTPUT included.
  const nat = () => parseRestore(toIptablesSave(renderIptables(snap(), defaultProxyConfig()))).get('nat')!;
  const pkt = (dst: string, dport: number, src = '10.244.1.100') => ({ src, dst, protocol: 'tcp' as const, dport, localAddresses: ['192.168.50.2'] });
  const summary = (outs: ReturnType<typeof traceNat>) =>
    outs.map((o) => ({ verdict: o.verdict, to: o.to, p: Number(o.probability.toFixed(6)), masq: o.masquerade })).sort((a, b) => String(a.to).localeCompare(String(b.to)));

  it('sends ClusterIP:port to each of three endpoints with probability 1/3', () => {
    expect(summary(traceNat(nat(), pkt('10.96.0.10', 80)))).toEqual([
      { verdict: 'DNAT', to: '10.244.1.2:8080', p: 0.333333, masq: false },
      { verdict: 'DNAT', to: '10.244.1.4:8080', p: 0.333333, masq: false },
      { verdict: 'DNAT', to: '10.244.2.3:8080', p: 0.333333, masq: false },
    ]);
  });

  it('marks traffic from outside the pod CIDR for masquerade', () => {
    const outs = traceNat(nat(), pkt('10.96.0.11', 443, '192.168.50.2'), 'OUTPUT');
    expect(summary(outs)).toEqual([{ verdict: 'DNAT', to: '10.244.1.5:8443', p: 1, masq: true }]);
    expect(outs[0]!.path).toEqual(['OUTPUT', 'KUBE-SERVICES', 'KUBE-SVC-BL4VTDSJDQ5TV32O', 'KUBE-MARK-MASQ', 'KUBE-SVC-BL4VTDSJDQ5TV32O', 'KUBE-SEP-SMYUYEM5J4PFURGO']);
  });

  it('does not DNAT a wrong port or a service without endpoints', () => {
    expect(summary(traceNat(nat(), pkt('10.96.0.10', 81)))).toEqual([{ verdict: 'ACCEPT', to: undefined, p: 1, masq: false }]);
    expect(summary(traceNat(nat(), pkt('10.96.0.12', 80)))).toEqual([{ verdict: 'ACCEPT', to: undefined, p: 1, masq: false }]);
  });

  it('takes a NodePort on a node address through KUBE-EXT (masqueraded) to the endpoint', () => {
    const outs = traceNat(nat(), pkt('192.168.50.2', 30080, '203.0.113.7'));
    expect(summary(outs)).toEqual([{ verdict: 'DNAT', to: '10.244.2.6:8080', p: 1, masq: true }]);
    expect(outs[0]!.path).toContain('KUBE-EXT-QUMPV5Z3SF2IMFUJ');
  });

  it('uses only the serving terminating endpoint of a service with none ready', () => {
    expect(summary(traceNat(nat(), pkt('10.96.0.15', 80)))).toEqual([{ verdict: 'DNAT', to: '10.244.1.9:8080', p: 1, masq: false }]);
  });

  it('splits a first packet to a ClientIP-affinity service evenly (no source recorded yet)', () => {
    expect(summary(traceNat(nat(), pkt('10.96.0.14', 80)))).toEqual([
      { verdict: 'DNAT', to: '10.244.1.7:8080', p: 0.5, masq: false },
      { verdict: 'DNAT', to: '10.244.2.8:8080', p: 0.5, masq: false },
    ]);
  });

  it('masquerades hairpin traffic: a pod reaching itself through its service', () => {
    expect(summary(traceNat(nat(), pkt('10.96.0.11', 443, '10.244.1.5')))).toEqual([{ verdict: 'DNAT', to: '10.244.1.5:8443', p: 1, masq: true }]);
  });
});
