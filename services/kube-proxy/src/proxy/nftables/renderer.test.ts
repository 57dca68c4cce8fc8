import { describe, expect, it } from 'vitest';
import { golden } from '../../testing/golden.js';
import { scenario } from '../../testing/fixtures.js';
import { buildSnapshot } from '../changetracker.js';
import { defaultProxyConfig } from '../types.js';
import { normalizeNftList, toNftList, toNftScript } from './model.js';
import { renderNftables } from './renderer.js';

const rs = () => {
  const s = scenario();
  return renderNftables(buildSnapshot(s.services, s.slices, 'node-1'), defaultProxyConfig());
};

describe('renderNftables', () => {
  it('renders the hand-checked nft -f transaction: chains added and flushed, maps flushed and refilled, the table kept', () => {
    const script = toNftScript(rs());
    expect(script).toBe(golden('nft-script.golden.txt'));
    expect(script.split('\n').slice(0, 3)).toEqual([
      'add table ip kube-proxy { comment "rules for kube-proxy" ; }',
      'add chain ip kube-proxy filter-prerouting { type filter hook prerouting priority -110 ; }',
      'flush chain ip kube-proxy filter-prerouting',
    ]);
    expect(script).not.toContain('delete table');
  });

  it('never flushes or deletes the affinity sets of endpoints that stay (their clients survive the sync)', () => {
    const affinityTouch = /^(delete|flush) set .*affinity-/;
    const s = scenario();
    const first = renderNftables(buildSnapshot(s.services, s.slices, 'node-1'), defaultProxyConfig());
    // Second sync: web lost an endpoint; sticky is unchanged.
    s.slices[0]!.endpoints = s.slices[0]!.endpoints.slice(1);
    const second = renderNftables(buildSnapshot(s.services, s.slices, 'node-1'), defaultProxyConfig());
    for (const tx of [toNftScript(first), toNftScript(second), toNftScript(second, { services: new Set(['default/web', 'default/sticky']) })]) {
      expect(tx.split('\n').filter((l) => affinityTouch.test(l))).toEqual([]);
      expect(tx).toContain('add set ip kube-proxy affinity-B5UJJR7H-default/sticky/tcp/http__10.244.1.7/8080 { type ipv4_addr ; flags dynamic,timeout ; timeout 10800s ; }\n');
    }
    // A partial sync of web alone leaves sticky's chains and sets alone (only the maps name them).
    const partial = toNftScript(second, { services: new Set(['default/web']), staleChains: ['endpoint-SVLGPL42-default/web/tcp/http__10.244.1.2/8080'] });
    expect(partial.split('\n').filter((l) => l.includes('sticky') && !l.startsWith('add element ip kube-proxy service-ips '))).toEqual([]);
    expect(partial).toContain('flush chain ip kube-proxy endpoint-SVLGPL42-default/web/tcp/http__10.244.1.2/8080\n');
    expect(partial).toContain('flush map ip kube-proxy service-ips\n');
  });

  it('dispatches through the service-ips verdict map and balances with numgen', () => {
    const script = toNftScript(rs());
    expect(script).toContain('add rule ip kube-proxy services ip daddr . meta l4proto . th dport vmap @service-ips\n');
    expect(script).toContain('add element ip kube-proxy service-ips { 10.96.0.10 . tcp . 80 : goto service-SUSTUHLJ-default/web/tcp/http }\n');
    expect(script).toContain(
      'add rule ip kube-proxy service-SUSTUHLJ-default/web/tcp/http numgen random mod 3 vmap { 0 : goto endpoint-SVLGPL42-default/web/tcp/http__10.244.1.2/8080, 1 : goto endpoint-S6J4REDL-default/web/tcp/http__10.244.1.4/8080, 2 : goto endpoint-AHN7CUJY-default/web/tcp/http__10.244.2.3/8080 }\n',
    );
    expect(script).toContain('add element ip kube-proxy cluster-ips { 10.96.0.12 }\n');
    expect(script).toContain('add element ip kube-proxy no-endpoint-services { 10.96.0.12 . tcp . 80 comment "default/empty:http" : goto reject-chain }\n');
    expect(script).toContain('add element ip kube-proxy service-nodeports { tcp . 30080 : goto external-ASNVMIOD-default/np/tcp/http }\n');
    expect(script).toContain('add set ip kube-proxy affinity-B5UJJR7H-default/sticky/tcp/http__10.244.1.7/8080 { type ipv4_addr ; flags dynamic,timeout ; timeout 10800s ; }\n');
    expect(script).not.toContain('10.244.2.10');
    expect(script).not.toContain('10.244.2.11');
  });

  it('prints what `nft list ruleset` printed after applying it (nft 1.0.6), up to element order', () => {
    expect(normalizeNftList(toNftList(rs()))).toBe(normalizeNftList(golden('nft-list.golden.txt')));
  });

  it('counts service-chain rules and map/set elements', () => {
    expect(rs().ruleCount).toBe(32 + 13);
  });
});
