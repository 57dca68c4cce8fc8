// crictl stats and statsp (container_stats.go, pod_stats.go): two samples a
// --seconds apart; CPU % is the usage-core-nanoseconds delta over the
// timestamp delta. Rows are sorted by ID (stats) as the runtime's list came.

import type { CriContainerStats__Output, CriPodSandboxStats__Output } from '@kubelab/proto';
import { humanSize } from './humanize.js';
import { truncatedId } from './lists.js';
import { formatTable } from './tabwriter.js';

/** ESC[2J ESC[H: crictl clears the screen before every stats table (display.ClearScreen). */
export const CLEAR_SCREEN = '\x1b[2J\x1b[H';

const n = (v: { value?: string | number } | null | undefined) => Number(v?.value ?? 0);

function cpuPercent(cpu: number, ts: number, oldCpu: number, oldTs: number): string {
  if (cpu === 0) return '0.00';
  const duration = ts - oldTs;
  if (duration === 0) throw new Error('cpu stat is not updated during sample');
  return (((cpu - oldCpu) / duration) * 100).toFixed(2);
}

export function sortStatsById<T extends { attributes?: { id: string } | null }>(stats: T[]): T[] {
  return [...stats].sort((a, b) => ((a.attributes?.id ?? '') < (b.attributes?.id ?? '') ? -1 : (a.attributes?.id ?? '') > (b.attributes?.id ?? '') ? 1 : 0));
}

export function formatContainerStats(before: CriContainerStats__Output[], after: CriContainerStats__Output[], all: boolean): string {
  const old = new Map(before.map((s) => [s.attributes?.id ?? '', s]));
  const rows = [['CONTAINER', 'NAME', 'CPU %', 'MEM', 'DISK', 'INODES', 'SWAP']];
  for (const s of after) {
    const cpu = n(s.cpu?.usageCoreNanoSeconds);
    const mem = n(s.memory?.workingSetBytes);
    if (!all && cpu === 0 && mem === 0) continue; // not running
    const o = old.get(s.attributes?.id ?? '');
    if (!o) continue; // new since the first sample
    rows.push([
      truncatedId(s.attributes?.id ?? ''),
      s.attributes?.metadata?.name ?? '',
      cpuPercent(cpu, Number(s.cpu?.timestamp ?? 0), n(o.cpu?.usageCoreNanoSeconds), Number(o.cpu?.timestamp ?? 0)),
      humanSize(mem),
      humanSize(n(s.writableLayer?.usedBytes)),
      String(n(s.writableLayer?.inodesUsed)),
      humanSize(0), // runtime.v1 here has no swap stats
    ]);
  }
  return CLEAR_SCREEN + formatTable(rows);
}

export function formatPodStats(before: CriPodSandboxStats__Output[], after: CriPodSandboxStats__Output[]): string {
  const old = new Map(before.map((s) => [s.attributes?.id ?? '', s]));
  const rows = [['POD', 'POD ID', 'CPU %', 'MEM']];
  for (const s of after) {
    const cpu = n(s.linux?.cpu?.usageCoreNanoSeconds);
    const mem = n(s.linux?.memory?.workingSetBytes);
    if (cpu === 0 && mem === 0) continue;
    const o = old.get(s.attributes?.id ?? '');
    if (!o) continue;
    rows.push([
      s.attributes?.metadata?.name ?? '',
      truncatedId(s.attributes?.id ?? ''),
      cpuPercent(cpu, Number(s.linux?.cpu?.timestamp ?? 0), n(o.linux?.cpu?.usageCoreNanoSeconds), Number(o.linux?.cpu?.timestamp ?? 0)),
      humanSize(mem),
    ]);
  }
  return CLEAR_SCREEN + formatTable(rows);
}
