// Eviction signals and thresholds (upstream pkg/kubelet/eviction/api and
// helpers.go ParseThresholdConfig): the --eviction-hard / --eviction-soft
// statements (`memory.available<100Mi,nodefs.available<10%`), soft grace
// periods and minimum reclaims, parsed with upstream's error texts.

import { Quantity, parseQuantity } from '@kubelab/api';
import { parseDuration } from '@kubelab/component-base';

export type Signal =
  | 'memory.available'
  | 'allocatableMemory.available'
  | 'nodefs.available'
  | 'nodefs.inodesFree'
  | 'imagefs.available'
  | 'imagefs.inodesFree'
  | 'containerfs.available'
  | 'containerfs.inodesFree'
  | 'pid.available';

/** The resource a signal measures (upstream signalToResource). */
export const SIGNAL_TO_RESOURCE: Record<Signal, string> = {
  'memory.available': 'memory',
  'allocatableMemory.available': 'memory',
  'nodefs.available': 'ephemeral-storage',
  'nodefs.inodesFree': 'inodes',
  'imagefs.available': 'ephemeral-storage',
  'imagefs.inodesFree': 'inodes',
  'containerfs.available': 'ephemeral-storage',
  'containerfs.inodesFree': 'inodes',
  'pid.available': 'pids',
};

/** The node condition a met threshold sets (upstream signalToNodeCondition). */
export const SIGNAL_TO_NODE_CONDITION: Record<Signal, 'MemoryPressure' | 'DiskPressure' | 'PIDPressure'> = {
  'memory.available': 'MemoryPressure',
  'allocatableMemory.available': 'MemoryPressure',
  'nodefs.available': 'DiskPressure',
  'nodefs.inodesFree': 'DiskPressure',
  'imagefs.available': 'DiskPressure',
  'imagefs.inodesFree': 'DiskPressure',
  'containerfs.available': 'DiskPressure',
  'containerfs.inodesFree': 'DiskPressure',
  'pid.available': 'PIDPressure',
};

/** A quantity or a fraction of capacity (float32, as upstream stores it). */
export interface ThresholdValue {
  quantity?: Quantity;
  percentage?: number;
}

export interface Threshold {
  signal: Signal;
  operator: 'LessThan';
  value: ThresholdValue;
  /** 0 for hard thresholds. */
  gracePeriodMs: number;
  minReclaim?: ThresholdValue;
}

/** Upstream's Linux DefaultEvictionHard, as the flag prints it. */
export const DEFAULT_EVICTION_HARD = 'imagefs.available<15%,memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%';

const validSignal = (s: string): s is Signal => Object.prototype.hasOwnProperty.call(SIGNAL_TO_RESOURCE, s);
const unsupported = (s: string) => new Error(`unsupported eviction signal ${s}`);

/** `a<b,c<d` (upstream LangleSeparatedMapStringString) or `a=b,c=d` (MapStringString) into pairs. */
export function parseMap(text: string, sep: '<' | '='): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(',')) {
    const kv = part.trim();
    if (!kv) continue;
    const i = kv.indexOf(sep);
    if (i <= 0) throw new Error(`malformed pair, expect string${sep}string`);
    out.set(kv.slice(0, i).trim(), kv.slice(i + 1).trim());
  }
  return out;
}

function parsePercentage(val: string): number {
  const n = Number(val.replace(/%+$/, ''));
  if (!Number.isFinite(n) || val.replace(/%+$/, '').trim() === '') throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(val.replace(/%+$/, ''))}: invalid syntax`);
  return Math.fround(Math.fround(n) / 100);
}

/** One statement's value; undefined for 0% and 100% (ignored, as upstream). */
export function parseThresholdStatement(signal: string, val: string): Threshold | undefined {
  if (!validSignal(signal)) throw unsupported(signal);
  if (val.endsWith('%')) {
    if (val === '0%' || val === '100%') return undefined;
    const percentage = parsePercentage(val);
    if (percentage < 0) throw new Error(`eviction percentage threshold ${signal} must be >= 0%: ${val}`);
    if (percentage > 1) throw new Error(`eviction percentage threshold ${signal} must be <= 100%: ${val}`);
    return { signal, operator: 'LessThan', value: { percentage }, gracePeriodMs: 0 };
  }
  const quantity = parseQuantity(val);
  if (quantity.sign() <= 0) throw new Error(`eviction threshold ${signal} must be positive: ${quantity.toString()}`);
  return { signal, operator: 'LessThan', value: { quantity }, gracePeriodMs: 0 };
}

export interface EvictionFlags {
  hard: string;
  soft?: string;
  softGracePeriod?: string;
  minimumReclaim?: string;
}

/** The thresholds of the eviction flags (upstream ParseThresholdConfig). */
export function parseThresholdConfig(f: EvictionFlags): Threshold[] {
  const results: Threshold[] = [];
  for (const [signal, val] of parseMap(f.hard, '<')) {
    const t = parseThresholdStatement(signal, val);
    if (t) results.push(t);
  }
  const grace = new Map<string, number>();
  for (const [signal, val] of parseMap(f.softGracePeriod ?? '', '=')) {
    if (!validSignal(signal)) throw unsupported(signal);
    const ms = parseDuration(val);
    if (ms < 0) throw new Error(`invalid eviction grace period specified: ${val}, must be a positive value`);
    grace.set(signal, ms);
  }
  for (const [signal, val] of parseMap(f.soft ?? '', '<')) {
    const t = parseThresholdStatement(signal, val);
    if (!t) continue;
    const g = grace.get(signal);
    if (g === undefined) throw new Error(`grace period must be specified for the soft eviction threshold ${signal}`);
    results.push({ ...t, gracePeriodMs: g });
  }
  for (const [signal, val] of parseMap(f.minimumReclaim ?? '', '=')) {
    if (!validSignal(signal)) throw unsupported(signal);
    let min: ThresholdValue;
    if (val.endsWith('%')) {
      const percentage = parsePercentage(val);
      if (percentage <= 0) throw new Error(`eviction percentage minimum reclaim ${signal} must be positive: ${val}`);
      min = { percentage };
    } else {
      const quantity = parseQuantity(val);
      if (quantity.sign() < 0) throw new Error(`negative eviction minimum reclaim specified for ${signal}`);
      min = { quantity };
    }
    for (const t of results) if (t.signal === signal) t.minReclaim = min;
  }
  return results;
}

/** The threshold's quantity against a capacity (upstream GetThresholdQuantity), in the unit of the signal. */
export function thresholdQuantity(v: ThresholdValue, capacity: number): number {
  if (v.quantity) return v.quantity.value();
  return Math.trunc(capacity * (v.percentage ?? 0));
}

/** How the threshold quantity prints: as written, or the percentage of capacity in BinarySI. */
export function thresholdQuantityText(v: ThresholdValue, capacity: number): string {
  if (v.quantity) return v.quantity.toString();
  return Quantity.fromValue(thresholdQuantity(v, capacity), 'BinarySI').toString();
}

export const isHard = (t: Threshold): boolean => t.gracePeriodMs === 0;

/** Identity of a threshold (for first-observed bookkeeping). */
export function thresholdKey(t: Threshold): string {
  const v = t.value.quantity ? t.value.quantity.toString() : `${t.value.percentage}`;
  return `${t.signal}<${v}@${t.gracePeriodMs}`;
}
