// Where hollow node number i lives: its name, its own loopback address (as a
// real node has its own IP, so every kubelet serves on the same port), and
// its zone (round-robin, as kubemark and KWOK setups label theirs).

/** The label the node lifecycle controller groups nodes by (upstream's topology.kubernetes.io/zone). */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

export const DEFAULT_ZONES = ['zone-a', 'zone-b', 'zone-c'] as const;

/**
 * Hollow nodes' addresses: 127.100.0.0/14 and up, on the host's `lo` (Linux
 * routes all of 127.0.0.0/8 there). Clear of 127.0.0.1 (the control plane,
 * the process nodes), 127.88.0.0/16 (sandboxes before a pod CIDR arrives)
 * and 127.10.0.0/24 (the loopback pod network's services).
 */
const FIRST_OCTET2 = 100;
/** Host numbers per /24: .1 to .250, never .0 or .255. */
const PER_BLOCK = 250;
/** The most hollow nodes the address plan holds (127.100.0.1 … 127.103.255.250). */
export const MAX_HOLLOW_NODES = 4 * 256 * PER_BLOCK;

/** Node number i (1-based) → its address: 1 → 127.100.0.1, 250 → 127.100.0.250, 251 → 127.100.1.1. */
export function hollowNodeIP(i: number): string {
  if (!Number.isInteger(i) || i < 1 || i > MAX_HOLLOW_NODES) throw new RangeError(`hollow node number must be 1..${MAX_HOLLOW_NODES}, got ${i}`);
  const block = Math.floor((i - 1) / PER_BLOCK);
  const host = ((i - 1) % PER_BLOCK) + 1;
  return `127.${FIRST_OCTET2 + Math.floor(block / 256)}.${block % 256}.${host}`;
}

/** Node number i (1-based) → its zone, round-robin over `zones`. */
export function hollowNodeZone(i: number, zones: readonly string[] = DEFAULT_ZONES): string {
  if (zones.length === 0) throw new RangeError('no zones');
  return zones[(i - 1) % zones.length]!;
}

/** The node numbers worker w (0-based) of `workers` hosts when `total` nodes are split evenly: its first number and count. */
export function workerRange(total: number, workers: number, w: number): { first: number; count: number } {
  const base = Math.floor(total / workers);
  const extra = total % workers;
  const count = base + (w < extra ? 1 : 0);
  const first = w * base + Math.min(w, extra) + 1;
  return { first, count };
}

/** How many worker processes host `nodes` hollow nodes at about `perWorker` each. */
export function workerCount(nodes: number, perWorker: number): number {
  return nodes === 0 ? 0 : Math.ceil(nodes / perWorker);
}
