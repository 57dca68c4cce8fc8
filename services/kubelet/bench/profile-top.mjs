// @ts-check
// The heaviest functions and files of a V8 CPU profile (node --cpu-prof), by
// self time, optionally within a window of the monotonic clock (µs) — the
// startup bench prints the burst's window as profileWindowUs with CPU_PROF set.
//
//   node bench/profile-top.mjs DIR/kubelet.cpuprofile [top=30] [fromUs toUs]

import { readFileSync } from 'node:fs';

const [file, topArg, fromArg, toArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: profile-top.mjs PROFILE [top] [fromUs toUs]\n');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const from = fromArg ? Number(fromArg) : -Infinity;
const to = toArg ? Number(toArg) : Infinity;
/** @type {{ nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number } }[], samples: number[], timeDeltas: number[], startTime: number }} */
const p = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const short = (/** @type {string} */ url) => url.replace(/^file:\/\/.*?\/(node_modules\/\.pnpm\/[^/]+\/node_modules|services|packages)\//, '');
/** @type {Map<string, number>} */
const fn = new Map();
/** @type {Map<string, number>} */
const pkg = new Map();
let at = p.startTime;
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  at += p.timeDeltas[i] ?? 0;
  if (at < from || at > to) continue;
  const n = byId.get(p.samples[i]);
  if (!n || n.callFrame.functionName === '(idle)') continue;
  const dt = p.timeDeltas[i] ?? 0;
  const cf = n.callFrame;
  const k = `${cf.functionName || '(anonymous)'} ${short(cf.url)}:${cf.lineNumber + 1}`;
  fn.set(k, (fn.get(k) ?? 0) + dt);
  const u = short(cf.url).split('/').slice(0, 2).join('/') || cf.functionName;
  pkg.set(u, (pkg.get(u) ?? 0) + dt);
  total += dt;
}
const show = (/** @type {Map<string, number>} */ m) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `${(v / 1000).toFixed(1).padStart(9)} ms ${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`)
    .join('\n');
console.log(`${file}: ${(total / 1000).toFixed(0)} ms of samples (idle excluded)\n-- functions\n${show(fn)}\n-- files\n${show(pkg)}`);
