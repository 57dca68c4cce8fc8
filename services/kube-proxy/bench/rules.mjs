// Rule computation (and, where possible, apply) time per proxy mode for
// 1,000 and 10,000 services × 10 endpoints, printed as JSON lines; the rule
// count shows how each mode grows ("iptables grows, nftables/ipvs scale better").
//
//   pnpm --filter @kubelab/kube-proxy bench            # render + apply when root
//   KUBELAB_BENCH_SIZES=1000 pnpm ... bench            # smaller run
//   KUBELAB_BENCH_APPLY=0 ...                          # render only
//
// Apply runs inside a network namespace the benchmark creates and deletes.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { backendFor, buildSnapshot, defaultProxyConfig } from '../dist/index.js';
import { execRunner } from '@kubelab/component-base';

const sizes = (process.env.KUBELAB_BENCH_SIZES ?? '1000,10000').split(',').map(Number);
const ENDPOINTS = 10;
const wantApply = process.env.KUBELAB_BENCH_APPLY !== '0';
// One apply may take at most this long.
const APPLY_TIMEOUT_MS = Number(process.env.KUBELAB_BENCH_APPLY_TIMEOUT_MS ?? 300_000);
const canApply =
  wantApply &&
  process.getuid?.() === 0 &&
  ['ip', 'iptables-restore', 'nft'].every((t) => {
    try {
      execFileSync('which', [t], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });

function objects(n) {
  const services = [];
  const slices = [];
  for (let i = 0; i < n; i++) {
    const ip = `10.96.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    services.push({ metadata: { namespace: 'bench', name: `svc-${i}` }, spec: { type: 'ClusterIP', clusterIP: ip, ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }] } });
    slices.push({
      metadata: { namespace: 'bench', name: `svc-${i}-x`, labels: { 'kubernetes.io/service-name': `svc-${i}` } },
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      endpoints: Array.from({ length: ENDPOINTS }, (_, j) => {
        const k = i * ENDPOINTS + j;
        return { addresses: [`10.${244 + Math.floor(k / 65536)}.${Math.floor(k / 256) % 256}.${k % 256}`], conditions: { ready: true } };
      }),
    });
  }
  return { services, slices };
}

const cfg = defaultProxyConfig();
const out = (rec) => process.stdout.write(JSON.stringify(rec) + '\n');

for (const n of sizes) {
  const { services, slices } = objects(n);
  let t = performance.now();
  const snap = buildSnapshot(services, slices, 'node-1');
  const snapshotMs = performance.now() - t;
  // One Service changed: its endpoint list moved by one address (what a rollout step looks like).
  const changedSlices = slices.map((sl, i) => (i === 0 ? { ...sl, endpoints: [...sl.endpoints.slice(1), { addresses: ['10.255.255.1'], conditions: { ready: true } }] } : sl));
  const snapChanged = buildSnapshot(services, changedSlices, 'node-1');
  for (const mode of ['iptables', 'nftables', 'ipvs']) {
    const backend = backendFor(mode);
    // Cold: chain names are hashed on first use, as on kube-proxy's first sync.
    t = performance.now();
    const r = backend.render(snap, cfg);
    const renderMs = performance.now() - t;
    t = performance.now();
    const script = r.script;
    const scriptMs = performance.now() - t;
    t = performance.now();
    backend.render(snap, cfg);
    const warmRenderMs = performance.now() - t;
    t = performance.now();
    void r.text;
    const listingMs = performance.now() - t;
    const rec = {
      bench: 'kube-proxy-rules',
      mode,
      services: n,
      endpointsPerService: ENDPOINTS,
      snapshotMs: Math.round(snapshotMs),
      renderMs: Math.round(renderMs),
      warmRenderMs: Math.round(warmRenderMs),
      scriptMs: Math.round(scriptMs),
      listingMs: Math.round(listingMs),
      rules: r.ruleCount,
      ...(r.detail ? { rulesByTable: r.detail } : {}),
      scriptBytes: Buffer.byteLength(script),
    };
    if (mode === 'ipvs') {
      rec.applyMs = null;
      rec.applyNote = existsSync('/proc/net/ip_vs') ? 'ipvs apply not benchmarked' : 'skipped: this kernel has no IPVS (/proc/net/ip_vs missing)';
    } else if (!canApply) {
      rec.applyMs = null;
      rec.applyNote = wantApply ? 'skipped: needs root, ip, iptables-restore and nft' : 'skipped: KUBELAB_BENCH_APPLY=0';
    } else {
      const ns = `kubelab-bench-${randomBytes(4).toString('hex')}`;
      execFileSync('ip', ['netns', 'add', ns]);
      try {
        const runner = execRunner(ns, { timeoutMs: APPLY_TIMEOUT_MS });
        const timed = async (fn) => {
          t = performance.now();
          await fn();
          return Math.round(performance.now() - t);
        };
        // First sync into an empty namespace, then what later syncs cost: a periodic
        // sync with nothing changed, one with one Service changed, and a full resync.
        rec.applyMs = await timed(() => backend.apply(runner, snap, cfg, { full: true, changed: new Set() }));
        rec.applyTransactions = backend.lastApply.transactions;
        rec.partialNoChangeMs = await timed(() => backend.apply(runner, snap, cfg, { full: false, changed: new Set() }));
        rec.partialOneServiceMs = await timed(() => backend.apply(runner, snapChanged, cfg, { full: false, changed: new Set(['bench/svc-0']) }));
        rec.fullResyncMs = await timed(() => backend.apply(runner, snapChanged, cfg, { full: true, changed: new Set() }));
      } catch (err) {
        rec.applyNote = performance.now() - t >= APPLY_TIMEOUT_MS ? `killed after ${APPLY_TIMEOUT_MS / 1000} s` : `failed: ${String(err.message).slice(0, 200)}`;
      } finally {
        execFileSync('ip', ['netns', 'del', ns]);
      }
    }
    out(rec);
  }
}
