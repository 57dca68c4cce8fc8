// df over the filesystem the kubelet's eviction manager measures: statfs of
// the node's disk (nodefs; kubelab's imagefs is the same filesystem), shown
// as mounted on the node's `/`. coreutils's column layout.

import { readFileSync, statfsSync } from 'node:fs';
import { faultedDisk, readNodeFaults } from '@kubelab/systemd';
import { resolve } from 'node:path';
import type { Io, NodeEnv, Tool } from './node-env.js';

export interface FsRow {
  source: string;
  sizeBytes: number;
  usedBytes: number;
  availBytes: number;
  target: string;
}

/** `59G`, `3.9G`, `790M` (coreutils -h: powers of 1024, rounded up, one decimal below 10). */
export function humanCeil(bytes: number): string {
  const units = ['', 'K', 'M', 'G', 'T', 'P'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return String(bytes);
  if (v < 10) {
    const up = Math.ceil(v * 10) / 10;
    return up >= 10 ? `10${units[i]}` : `${up.toFixed(1)}${units[i]}`;
  }
  return `${Math.ceil(v)}${units[i]}`;
}

/** coreutils's table: Filesystem at least 14 wide, size columns 5, Use% 4. */
export function formatDf(rows: FsRow[], human: boolean): string {
  const size = (b: number) => (human ? humanCeil(b) : String(Math.ceil(b / 1024)));
  const head = ['Filesystem', human ? 'Size' : '1K-blocks', 'Used', human ? 'Avail' : 'Available', 'Use%', 'Mounted on'];
  const cells = rows.map((r) => {
    const pct = r.usedBytes + r.availBytes > 0 ? `${Math.ceil((r.usedBytes * 100) / (r.usedBytes + r.availBytes))}%` : '-';
    return [r.source, size(r.sizeBytes), size(r.usedBytes), size(r.availBytes), pct, r.target];
  });
  const min = [14, 5, 5, 5, 4, 0];
  const widths = head.map((h, i) => Math.max(min[i]!, h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => (i === 0 ? v.padEnd(widths[0]!) : i === 5 ? v : v.padStart(widths[i]!))).join(' ');
  return [line(head), ...cells.map(line)].join('\n') + '\n';
}

/** The mount holding `path` (/proc/self/mountinfo, longest mount point wins): its source. */
export function mountSource(path: string, mountinfo: string): string {
  let best = { point: '', source: 'none' };
  for (const line of mountinfo.split('\n')) {
    const f = line.split(' ');
    const sep = f.indexOf('-');
    if (sep < 0) continue;
    const point = f[4]!.replace(/\\040/g, ' ');
    const inside = path === point || path.startsWith(point.endsWith('/') ? point : `${point}/`);
    if (inside && point.length >= best.point.length) best = { point, source: f[sep + 2] ?? 'none' };
  }
  return best.source;
}

export const df: Tool = async (argv: string[], io: Io, env: NodeEnv) => {
  let human = false;
  for (const a of argv) {
    if (a === '-h' || a === '--human-readable') human = true;
    else {
      io.err(`df: unrecognized option '${a}'\nTry 'df --help' for more information.\n`);
      return 1;
    }
  }
  const root = resolve(env.root);
  const st = statfsSync(root);
  let source = 'none';
  try {
    source = mountSource(root, readFileSync('/proc/self/mountinfo', 'utf8'));
  } catch {}
  // A disk a fault filled shows here as in the kubelet's nodefs.available (@kubelab/systemd's node fault state).
  const disk = faultedDisk({ capacityBytes: st.blocks * st.bsize, usedBytes: (st.blocks - st.bfree) * st.bsize, availableBytes: st.bavail * st.bsize }, readNodeFaults(root));
  io.out(formatDf([{ source, sizeBytes: disk.capacityBytes, usedBytes: disk.usedBytes, availBytes: disk.availableBytes, target: '/' }], human));
  return 0;
};
