// Where hollow node number i lives: its name, its own address (on the host's
// loopback, or on a container's network; as a real node has its own IP, so
// every kubelet serves on the same port), and
// its zone (round-robin, as kubemark and KWOK setups label theirs).

/** The label the node lifecycle controller groups nodes by (upstream's topology.kubernetes.io/zone). */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

export const DEFAULT_ZONES = ['zone-a', 'zone-b', 'zone-c'] as const;

/**
 * Where node i's address comes from: `blocks` /24s from `base` (an IPv4
 * address as a number), hosts .1 to .250 of each, never .0 or .255.
 */
export interface AddressPlan {
  readonly base: number;
  readonly blocks: number;
}

/** Host numbers per /24: .1 to .250, never .0 or .255. */
const PER_BLOCK = 250;

/**
 * The local runner's plan: 127.100.0.0/14 on the host's `lo` (Linux routes
 * all of 127.0.0.0/8 there). Clear of 127.0.0.1 (the control plane, the
 * process nodes), 127.88.0.0/16 (sandboxes before a pod CIDR arrives) and
 * 127.10.0.0/24 (the loopback pod network's services).
 */
export const LOOPBACK_PLAN: AddressPlan = { base: ipToNumber('127.100.0.0'), blocks: 4 * 256 };

/** The most hollow nodes the loopback plan holds (127.100.0.1 … 127.103.255.250). */
export const MAX_HOLLOW_NODES = planCapacity(LOOPBACK_PLAN);

/** How many nodes a plan holds. */
export function planCapacity(plan: AddressPlan): number {
  return plan.blocks * PER_BLOCK;
}

/** Node number i (1-based) → its address: 1 → 127.100.0.1, 250 → 127.100.0.250, 251 → 127.100.1.1 (loopback plan). */
export function hollowNodeIP(i: number, plan: AddressPlan = LOOPBACK_PLAN): string {
  const max = planCapacity(plan);
  if (!Number.isInteger(i) || i < 1 || i > max) throw new RangeError(`hollow node number must be 1..${max}, got ${i}`);
  const block = Math.floor((i - 1) / PER_BLOCK);
  const host = ((i - 1) % PER_BLOCK) + 1;
  return numberToIp(plan.base + block * 256 + host);
}

/** Blocks of the interface plan: the top /22 of the network. */
const INTERFACE_BLOCKS = 4;

/**
 * The plan on a container's network (compose's hollow-nodes service): the
 * top /22 of the interface's IPv4 network `cidr` (its own address/prefix),
 * added to the interface as further addresses, so that every container on
 * that network reaches each node at an address of its own, as kubemark's
 * hollow-node pods each have a pod IP. Docker hands out addresses from the
 * bottom of a network, so the top stays free; the container's own address
 * must not be in it.
 */
export function interfacePlan(cidr: string): AddressPlan {
  const m = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(cidr);
  if (!m) throw new RangeError(`"${cidr}" is not an IPv4 address/prefix`);
  const own = ipToNumber(m[1]!);
  const prefix = Number(m[2]);
  if (prefix > 32 - 2 - 8) throw new RangeError(`the network of ${cidr} is smaller than a /22: no room for hollow node addresses`);
  const size = 2 ** (32 - prefix);
  const network = own - (own % size);
  const base = network + size - INTERFACE_BLOCKS * 256;
  if (own >= base) throw new RangeError(`${m[1]} is in the top /22 of its network, where the hollow nodes' addresses go`);
  return { base, blocks: INTERFACE_BLOCKS };
}

function ipToNumber(ip: string): number {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new RangeError(`"${ip}" is not an IPv4 address`);
  return ((parts[0]! * 256 + parts[1]!) * 256 + parts[2]!) * 256 + parts[3]!;
}

function numberToIp(n: number): string {
  return [Math.floor(n / 2 ** 24) % 256, Math.floor(n / 2 ** 16) % 256, Math.floor(n / 256) % 256, n % 256].join('.');
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
