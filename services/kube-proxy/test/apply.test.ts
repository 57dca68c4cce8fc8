// Apply mode against the real kernel, inside a network namespace this test
// creates (and deletes): iptables-restore / nft -f, then read back with
// iptables-save / nft list. Needs root and the tools; skipped locally
// without them, a failure under CI=true.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requirePrerequisite, requireTool } from '@kubelab/testing';
import { localScenario, scenario } from '../src/testing/fixtures.js';
import { backendFor } from '../src/proxy/backends.js';
import { IptablesBackend } from '../src/proxy/iptables/backend.js';
import { NftablesBackend } from '../src/proxy/nftables/backend.js';
import { buildSnapshot } from '../src/proxy/changetracker.js';
import { execRunner } from '@kubelab/component-base';
import { renderIptables } from '../src/proxy/iptables/renderer.js';
import { normalizeSaveOutput, toIptablesSave } from '../src/proxy/iptables/save.js';
import { normalizeNftList, toNftList } from '../src/proxy/nftables/model.js';
import { renderNftables } from '../src/proxy/nftables/renderer.js';
import { defaultProxyConfig } from '../src/proxy/types.js';

function canApply(): boolean {
  const tools = ['ip', 'iptables-restore', 'iptables-save', 'nft'].every((t) => requireTool(t));
  if (!tools) return false;
  return requirePrerequisite('root (ip netns add, for the apply tests)', process.getuid?.() === 0);
}

const enabled = canApply();
const ns = `kubelab-test-${randomBytes(4).toString('hex')}`;
const cfg = defaultProxyConfig();
const full = () => {
  const s = scenario();
  return buildSnapshot(s.services, s.slices, 'node-1');
};

describe.skipIf(!enabled)('apply mode in a network namespace', () => {
  beforeAll(() => {
    execFileSync('ip', ['netns', 'add', ns]);
  });
  afterAll(() => {
    execFileSync('ip', ['netns', 'del', ns]);
  });
  const runner = execRunner(ns);
  const iptablesBackend = backendFor('iptables');
  const nftablesBackend = backendFor('nftables');
  const ipvsBackend = backendFor('ipvs');

  it('iptables: the kernel holds exactly the rendered ruleset, jumps included', async () => {
    expect(await iptablesBackend.probe(runner)).toBeUndefined();
    await iptablesBackend.apply(runner, full(), cfg);
    const kernel = await iptablesBackend.readBack(runner);
    expect(normalizeSaveOutput(kernel)).toBe(normalizeSaveOutput(toIptablesSave(renderIptables(full(), cfg))));
    const nat = execFileSync('ip', ['netns', 'exec', ns, 'iptables-save', '-t', 'nat'], { encoding: 'utf8' });
    expect(nat).toContain('-A KUBE-SERVICES -d 10.96.0.10/32 -p tcp -m comment --comment "default/web:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-CDGGSHYLG3RE2FKL\n');
  });

  it('iptables: a second sync deletes the chains of a removed service and does not duplicate jumps', async () => {
    const s = scenario();
    const withoutWeb = buildSnapshot(
      s.services.filter((x) => x.metadata.name !== 'web'),
      s.slices.filter((x) => !x.metadata.name!.startsWith('web')),
      'node-1',
    );
    const r = await iptablesBackend.apply(runner, withoutWeb, cfg, { full: false, changed: new Set(['default/web']) });
    expect(r.script).toContain('-X KUBE-SVC-CDGGSHYLG3RE2FKL\n');
    expect(iptablesBackend.lastApply).toEqual({ full: false, unitsWritten: 0, transactions: 1, staleChains: 4 });
    const nat = execFileSync('ip', ['netns', 'exec', ns, 'iptables-save', '-t', 'nat'], { encoding: 'utf8' });
    expect(nat).not.toContain('KUBE-SVC-CDGGSHYLG3RE2FKL');
    expect(nat).not.toContain('KUBE-SEP-UIQK3OSOSTRHRPBX');
    expect(nat.split('\n').filter((l) => l.startsWith('-A PREROUTING'))).toEqual(['-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES']);
    expect(normalizeSaveOutput(await iptablesBackend.readBack(runner))).toBe(normalizeSaveOutput(toIptablesSave(renderIptables(withoutWeb, cfg))));
  });

  it('nftables: table ip kube-proxy is replaced atomically and lists as rendered', async () => {
    expect(await nftablesBackend.probe(runner)).toBeUndefined();
    await nftablesBackend.apply(runner, full(), cfg);
    await nftablesBackend.apply(runner, full(), cfg);
    const listed = await nftablesBackend.readBack(runner);
    expect(normalizeNftList(listed)).toBe(normalizeNftList(toNftList(renderNftables(full(), cfg))));
    expect(listed).toContain('numgen random mod 3 vmap { 0 : goto endpoint-SVLGPL42-default/web/tcp/http__10.244.1.2/8080');
  });

  const sh = (...argv: string[]) => execFileSync('ip', ['netns', 'exec', ns, ...argv], { encoding: 'utf8' });
  const scenarioWith = (change: (s: ReturnType<typeof scenario>) => void) => {
    const s = scenario();
    change(s);
    return buildSnapshot(s.services, s.slices, 'node-1');
  };
  // web drops its endpoint 10.244.2.3.
  const webShrunk = () => scenarioWith((s) => (s.slices[0]!.endpoints = s.slices[0]!.endpoints.filter((e) => e.addresses[0] !== '10.244.2.3')));

  it('iptables: a partial sync rewrites only the changed Service; a full sync rewrites everything', async () => {
    const b = backendFor('iptables');
    await b.apply(runner, full(), cfg);
    // A marker in an unchanged Service's chain shows which chains a sync rewrote.
    sh('iptables', '-t', 'nat', '-A', 'KUBE-SVC-BL4VTDSJDQ5TV32O', '-m', 'comment', '--comment', 'marker', '-j', 'RETURN');
    await b.apply(runner, webShrunk(), cfg, { full: false, changed: new Set(['default/web']) });
    expect(b.lastApply).toEqual({ full: false, unitsWritten: 1, transactions: 1, staleChains: 1 });
    let nat = sh('iptables-save', '-t', 'nat');
    expect(nat).toContain('-A KUBE-SVC-BL4VTDSJDQ5TV32O -m comment --comment marker -j RETURN');
    expect(nat).not.toContain('10.244.2.3');
    expect(nat.split('\n').filter((l) => l.startsWith('-A KUBE-SVC-CDGGSHYLG3RE2FKL'))).toHaveLength(3);
    await b.apply(runner, webShrunk(), cfg, { full: true, changed: new Set() });
    nat = sh('iptables-save', '-t', 'nat');
    expect(nat).not.toContain('marker');
    expect(normalizeSaveOutput(await b.readBack(runner))).toBe(normalizeSaveOutput(toIptablesSave(renderIptables(webShrunk(), cfg))));
  });

  it('iptables: a sync larger than one batch writes whole services per restore and ends as one ruleset', async () => {
    const b = new IptablesBackend(3);
    await b.apply(runner, full(), cfg, { full: true, changed: new Set() });
    expect(b.lastApply!.transactions).toBeGreaterThan(3);
    expect(normalizeSaveOutput(await b.readBack(runner))).toBe(normalizeSaveOutput(toIptablesSave(renderIptables(full(), cfg))));
    const s = scenario();
    const none = buildSnapshot([], [], 'node-1');
    await b.apply(runner, none, cfg, { full: false, changed: new Set(s.services.map((x) => `default/${x.metadata.name}`)) });
    // 14 stale chains: unreferenced after the top-level restore, flushed in one restore, deleted in batches of 3.
    expect(b.lastApply).toEqual({ full: false, unitsWritten: 0, transactions: 1 + 1 + 5, staleChains: 14 });
    expect(sh('iptables-save', '-t', 'nat')).not.toMatch(/KUBE-(SVC|SEP|EXT)-/);
  });

  /** The table's sets, maps and chains as sorted blocks: batched syncs create chains in another order. */
  const blocks = (list: string) =>
    normalizeNftList(list)
      .split(/\n(?=\t(?:set|map|chain) )/)
      .map((b) => b.trim().replace(/\n}$/, ''))
      .sort();
  const affinitySet = 'affinity-B5UJJR7H-default/sticky/tcp/http__10.244.1.7/8080';
  const affinityElements = () => sh('nft', 'list', 'set', 'ip', 'kube-proxy', affinitySet);

  it('nftables: affinity sets keep the clients they remember across full and partial syncs', async () => {
    const b = backendFor('nftables');
    await b.apply(runner, full(), cfg);
    sh('nft', 'add', 'element', 'ip', 'kube-proxy', affinitySet, '{ 192.168.9.9 }');
    await b.apply(runner, full(), cfg, { full: true, changed: new Set() });
    expect(affinityElements()).toContain('192.168.9.9');
    await b.apply(runner, full(), cfg, { full: false, changed: new Set(['default/sticky']) });
    expect(affinityElements()).toContain('192.168.9.9');
    // A new timeout cannot be set in place: that set starts over.
    const shorter = scenarioWith((s) => (s.services[4]!.spec!.sessionAffinityConfig = { clientIP: { timeoutSeconds: 60 } }));
    await b.apply(runner, shorter, cfg, { full: false, changed: new Set(['default/sticky']) });
    expect(affinityElements()).not.toContain('192.168.9.9');
    expect(affinityElements()).toContain('timeout 1m');
  });

  it('nftables: chains of a removed endpoint are flushed at once and deleted by a sync a second later', async () => {
    let now = 1_000_000;
    const b = new NftablesBackend(2000, () => now);
    await b.apply(runner, full(), cfg);
    const gone = 'endpoint-AHN7CUJY-default/web/tcp/http__10.244.2.3/8080';
    await b.apply(runner, webShrunk(), cfg, { full: false, changed: new Set(['default/web']) });
    expect(b.lastApply).toEqual({ full: false, unitsWritten: 1, transactions: 1, staleChains: 1 });
    expect(sh('nft', 'list', 'chain', 'ip', 'kube-proxy', gone)).not.toContain('dnat');
    now += 1000;
    await b.apply(runner, webShrunk(), cfg, { full: false, changed: new Set() });
    expect(sh('nft', 'list', 'chains', 'ip')).not.toContain(gone);
    expect(normalizeNftList(await b.readBack(runner))).toBe(normalizeNftList(toNftList(renderNftables(webShrunk(), cfg))));
  });

  it('nftables: a sync larger than one batch ends as the rendered table', async () => {
    await runner.run(['nft', 'delete', 'table', 'ip', 'kube-proxy']);
    const b = new NftablesBackend(3);
    await b.apply(runner, full(), cfg);
    expect(b.lastApply!.transactions).toBeGreaterThan(3);
    expect(blocks(await b.readBack(runner))).toEqual(blocks(toNftList(renderNftables(full(), cfg))));
  });

  it('Local traffic policies: the kernel takes the KUBE-SVL / local- rules and lists them as rendered', async () => {
    const s = localScenario();
    const local = buildSnapshot(s.services, s.slices, 'node-1');
    const ipt = backendFor('iptables');
    await ipt.apply(runner, local, cfg);
    expect(normalizeSaveOutput(await ipt.readBack(runner))).toBe(normalizeSaveOutput(toIptablesSave(renderIptables(local, cfg))));
    await runner.run(['nft', 'delete', 'table', 'ip', 'kube-proxy']);
    const nft = backendFor('nftables');
    await nft.apply(runner, local, cfg);
    expect(blocks(await nft.readBack(runner))).toEqual(blocks(toNftList(renderNftables(local, cfg))));
  });

  it.skipIf(existsSync('/proc/net/ip_vs'))('ipvs: reports why it cannot apply on a kernel without IPVS', async () => {
    expect(await ipvsBackend.probe(runner)).toBe('IPVS is not available in this kernel (/proc/net/ip_vs is missing; modprobe ip_vs needs a kernel with IPVS)');
  });
});
