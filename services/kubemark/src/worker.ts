// A worker process's share of the hollow nodes (kubemark runs one hollow-node
// per pod; here one process holds many, sharing the code and the heap): it
// starts them a few at a time, retries one that fails to start, and stops
// them all together. power() stops chosen nodes and starts them again, as if
// their machines lost power and got it back: kubelet and runtime end (no
// more Lease renewals or status), the node's folder stays.

import { join } from 'node:path';
import { SharedTlsFront, SyncSlots } from '@kubelab/kubelet';
import { selfSignedCertKey } from '@kubelab/pki';
import { LOOPBACK_PLAN, ZONE_LABEL, hollowNodeIP, hollowNodeZone, type AddressPlan } from './addresses.js';
import { startHollowNode, type HollowNode, type HollowNodeOptions } from './hollow-node.js';
import { LogFiles } from './log-files.js';
import { LoopLag } from './loop-lag.js';

export interface HollowWorkerOptions extends Omit<HollowNodeOptions, 'nodeName' | 'nodeIP' | 'dir' | 'tlsFront' | 'nodeLabels' | 'logFiles' | 'podSyncSlots'> {
  /** Node names are `<prefix><i>` for i in first … first+count-1. */
  prefix: string;
  first: number;
  count: number;
  /** The nodes' folders: `<nodesDir>/<name>`. */
  nodesDir: string;
  zones: readonly string[];
  /** Where the nodes' addresses come from (default: 127.100.x.y on the host's loopback). */
  addresses?: AddressPlan;
  /** Labels every node registers with, besides its zone (--node-labels). */
  nodeLabels?: Record<string, string>;
  /** Nodes starting at once (their TLS bootstrap is a CSR round trip each). */
  concurrency?: number;
  /** A line per milestone (the worker's own log). */
  log?: (line: string) => void;
}

/** One node of the worker as `kubelab hollow status` shows it. */
export interface HollowNodeState {
  name: string;
  zone: string;
  /** running; stopped (by power()); starting (not yet started, or being started again). */
  state: 'running' | 'stopped' | 'starting';
}

export interface HollowWorker {
  /** Resolves once every node has started (or the worker was stopped). */
  started: Promise<void>;
  /** The running nodes. */
  nodes: Map<string, HollowNode>;
  /** Every node of the worker, in number order. */
  list(): HollowNodeState[];
  /**
   * Stops (kubelet and runtime end, as at a power loss) or starts again the
   * named nodes of this worker; names not of this worker, or already in that
   * state, are left out of the answer. One operation at a time.
   */
  power(action: 'stop' | 'start', names: readonly string[]): Promise<string[]>;
  stop(): Promise<void>;
}

const RETRY_MS = 2000;
/** A lane waits this long at most for its node to register before it starts the next one. */
const REGISTER_WAIT_MS = 60_000;
/** Pod syncs that hold a slot at once over a worker's nodes; while its loop lags, fewer: enough to keep its one thread busy, few enough that a heartbeat waits behind little. */
const POD_SYNC_SLOTS = 256;
const POD_SYNC_SLOTS_LAGGING = 32;

/** Resolves once the kubelet has registered its Node (its status controller holds the object), or after `ms`. */
async function registered(node: HollowNode, ms: number, stopping: () => boolean): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (!node.kubelet.kubelet.nodeStatus.node && performance.now() < deadline && !stopping()) await new Promise((r) => setTimeout(r, 200));
  return node.kubelet.kubelet.nodeStatus.node !== undefined;
}

export async function startHollowWorker(o: HollowWorkerOptions): Promise<HollowWorker> {
  const numbers = Array.from({ length: o.count }, (_, k) => o.first + k);
  const name = (i: number) => `${o.prefix}${i}`;
  const ipOf = (i: number) => hollowNodeIP(i, o.addresses ?? LOOPBACK_PLAN);
  // One serving pair for the process's kubelet APIs (a certificate per node would cost a key generation each).
  const pair = await selfSignedCertKey(`hollow-node-${o.first}`, { ipAddresses: numbers.map(ipOf), dnsNames: numbers.map(name) });
  const tlsFront = new SharedTlsFront({ certPem: pair.cert, keyPem: pair.key, clientCaPem: o.clientCaPem });
  // Pod syncs of all its nodes take turns once the loop lags (SyncSlots): a Deployment's burst on every node at once must not delay each node's Status and Lease past their thresholds.
  const lag = new LoopLag(() => podSyncSlots.admit());
  const podSyncSlots = new SyncSlots(POD_SYNC_SLOTS_LAGGING, () => lag.overloaded(), POD_SYNC_SLOTS);
  // The nodes' log files, appended to in batches (log-files.ts).
  const logFiles = new LogFiles();
  const nodes = new Map<string, HollowNode>();
  /** Nodes power() stopped. */
  const down = new Set<string>();
  const numberOf = new Map(numbers.map((i) => [name(i), i]));
  let stopping = false;
  const queue = [...numbers];
  const startOne = async (i: number): Promise<void> => {
    for (let attempt = 1; !stopping; attempt++) {
      try {
        const node = await startHollowNode({
          ...o,
          nodeName: name(i),
          nodeIP: ipOf(i),
          dir: join(o.nodesDir, name(i)),
          tlsFront,
          podSyncSlots,
          nodeLabels: { ...o.nodeLabels, [ZONE_LABEL]: hollowNodeZone(i, o.zones) },
          logFiles,
        });
        if (stopping) return void (await node.stop());
        nodes.set(node.nodeName, node);
        // Paced by registration: a lane's next node connects once this one is known to the apiserver, so a
        // thousand kubelets do not open their connections, lists and watches at the same moment.
        if (!(await registered(node, REGISTER_WAIT_MS, () => stopping))) o.log?.(`hollow node ${node.nodeName} not registered after ${REGISTER_WAIT_MS / 1000}s; going on`);
        return;
      } catch (e) {
        o.log?.(`hollow node ${name(i)} failed to start (attempt ${attempt}): ${(e as Error).message}; retrying in ${RETRY_MS / 1000}s`);
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  };
  const lanes = Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 25, numbers.length)) }, async () => {
    for (let i = queue.shift(); i !== undefined && !stopping; i = queue.shift()) await startOne(i);
  });
  const t0 = performance.now();
  const started = Promise.all(lanes).then(() => {
    if (!stopping) o.log?.(`${nodes.size} hollow nodes started (${name(o.first)} … ${name(o.first + o.count - 1)}) in ${((performance.now() - t0) / 1000).toFixed(1)}s`);
  });
  let powering: Promise<unknown> = Promise.resolve();
  const power = async (action: 'stop' | 'start', names: readonly string[]): Promise<string[]> => {
    await started;
    const mine = names.filter((n) => numberOf.has(n) && (action === 'stop' ? nodes.has(n) : down.has(n)));
    if (action === 'stop') {
      // All at once, as a zone's power goes: no node of the set renews its Lease after this.
      await Promise.all(
        mine.map(async (n) => {
          const node = nodes.get(n)!;
          nodes.delete(n);
          down.add(n);
          await node.stop().catch((e: Error) => o.log?.(`stopping ${n}: ${e.message}`));
        }),
      );
      o.log?.(`stopped ${mine.length} hollow nodes (kubelet and runtime): ${mine.join(' ')}`);
      return mine;
    }
    // Power back: the nodes start again a lane at a time, each from its own folder (its kubelet.conf, runtime state).
    const again = [...mine];
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(o.concurrency ?? 25, again.length)) }, async () => {
        for (let n = again.shift(); n !== undefined && !stopping; n = again.shift()) {
          await startOne(numberOf.get(n)!);
          if (nodes.has(n)) down.delete(n);
        }
      }),
    );
    const back = mine.filter((n) => nodes.has(n));
    o.log?.(`started ${back.length} hollow nodes again in ${((performance.now() - t0) / 1000).toFixed(1)}s: ${back.join(' ')}`);
    return back;
  };
  return {
    started,
    nodes,
    list: () => numbers.map((i) => ({ name: name(i), zone: hollowNodeZone(i, o.zones), state: nodes.has(name(i)) ? 'running' : down.has(name(i)) ? 'stopped' : 'starting' })),
    power: (action, names) => {
      const r = powering.then(() => power(action, names));
      powering = r.catch(() => undefined);
      return r;
    },
    stop: async () => {
      stopping = true;
      lag.stop();
      await started;
      await powering;
      await Promise.all([...nodes.values()].map((n) => n.stop().catch((e: Error) => o.log?.(`stopping ${n.nodeName}: ${e.message}`))));
      nodes.clear();
      logFiles.flush();
    },
  };
}
