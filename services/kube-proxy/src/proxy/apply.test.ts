// Apply mode against the real kernel, inside a network namespace this test
// creates (and deletes): iptables-restore / nft -f, then read back with
// iptables-save / nft list. Needs root and the tools; skipped locally
// without them, a failure under CI=true.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { scenario } from '../testdata/fixtures.js';
import { ipvsBackend, iptablesBackend, nftablesBackend } from './backend.js';
import { buildSnapshot } from './changetracker.js';
import { execRunner } from './exec.js';
import { renderIptables } from './iptables/renderer.js';
import { normalizeSaveOutput, toIptablesSave } from './iptables/save.js';
import { normalizeNftList, toNftList } from './nftables/model.js';
import { renderNftables } from './nftables/renderer.js';
import { defaultProxyConfig } from './types.js';

function canApply(): boolean {
  const tools = ['ip', 'iptables-restore', 'iptables-save', 'nft'].every((t) => requireTool(t));
  if (!tools) return false;
  if (process.getuid?.() !== 0) {
    if (process.env.CI === 'true') throw new Error('the apply tests need root (ip netns add) under CI=true');
    return false;
  }
  return true;
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
    const r = await iptablesBackend.apply(runner, withoutWeb, cfg);
    expect(r.script).toContain('-X KUBE-SVC-CDGGSHYLG3RE2FKL\n');
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

  it.skipIf(existsSync('/proc/net/ip_vs'))('ipvs: reports why it cannot apply on a kernel without IPVS', async () => {
    expect(await ipvsBackend.probe(runner)).toBe('IPVS is not available in this kernel (/proc/net/ip_vs is missing; modprobe ip_vs needs a kernel with IPVS)');
  });
});
