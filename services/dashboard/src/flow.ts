// The message flow as both the server and the page keep it: one message per
// crossing of a component boundary (a CRI call, an API request, a watch
// delivery, an Event, a dashboard action), a bounded buffer ordered by start
// time, the filters the flow view offers, and a pod's story (the messages
// about one pod, as a sequence diagram's lanes and steps). No Node or DOM
// imports: the page bundles this file as it is.

/** `sched`: the scheduler's decision (its record on kubelab.sched.<namespace>.<pod>); `proxy`: a kube-proxy rules sync (kubelab.proxy.<node>). */
export type FlowKind = 'cri' | 'api' | 'watch' | 'event' | 'action' | 'sched' | 'proxy';

export interface FlowMessage {
  /** Arrival order at the dashboard server (unique, increasing). */
  seq: number;
  /** When the message started, ms since the epoch (a CRI call's start, a request's arrival). */
  time: number;
  durationMs?: number;
  kind: FlowKind;
  /** The sender and the receiver as lanes name them: `kubelet(node-1)`, `containerd(node-1)`, `apiserver`. */
  from: string;
  to: string;
  /** The node the message concerns or happens on. */
  node?: string;
  /** The object: kind and namespace/name (a pod for CRI calls). */
  objectKind?: string;
  namespace?: string;
  name?: string;
  /** RunPodSandbox, create, MODIFIED, Scheduled … */
  method: string;
  detail?: string;
  /** `OK` or a gRPC / HTTP status text. */
  code?: string;
  traceId?: string;
}

/** The read-only CRI calls the kubelet repeats every relist and pod sync (as `kubelab trace` hides them). */
export const RELIST_METHODS: ReadonlySet<string> = new Set([
  'Version',
  'Status',
  'RuntimeConfig',
  'ListPodSandbox',
  'ListContainers',
  'ListImages',
  'PodSandboxStatus',
  'ContainerStatus',
  'ImageFsInfo',
  'ContainerStats',
  'ListContainerStats',
  'PodSandboxStats',
  'ListPodSandboxStats',
]);

/** A component's name from a lane: `kubelet(node-1)` → `kubelet`. */
export function componentOf(lane: string): string {
  const i = lane.indexOf('(');
  return i < 0 ? lane : lane.slice(0, i);
}

export function objectKey(m: Pick<FlowMessage, 'namespace' | 'name'>): string {
  if (!m.name) return '';
  return m.namespace ? `${m.namespace}/${m.name}` : m.name;
}

function before(a: FlowMessage, b: FlowMessage): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}

/**
 * The last `capacity` messages, ordered by start time (a call is published
 * when it ends, so a slow call arrives after later ones and is put back in
 * its place). When full, the oldest by start time is dropped.
 */
export class FlowBuffer {
  /** Kept messages are items[start..]; dropped ones are skipped by moving `start`, compacted now and then. */
  private items: FlowMessage[] = [];
  private start = 0;
  private dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive whole number, got ${capacity}`);
  }

  /** Inserts in start-time order; answers the messages dropped to stay within capacity. */
  push(m: FlowMessage): FlowMessage[] {
    const a = this.items;
    let i = a.length;
    // Nearly always in order: walk back from the end.
    while (i > this.start && before(m, a[i - 1]!)) i--;
    if (i === a.length) a.push(m);
    else a.splice(i, 0, m);
    const over = a.length - this.start - this.capacity;
    if (over <= 0) return [];
    const out = a.slice(this.start, this.start + over);
    this.start += over;
    this.dropped += over;
    if (this.start >= this.capacity) {
      this.items = a.slice(this.start);
      this.start = 0;
    }
    return out;
  }

  pushAll(ms: Iterable<FlowMessage>): void {
    for (const m of ms) this.push(m);
  }

  get size(): number {
    return this.items.length - this.start;
  }

  /** How many messages were dropped since the start. */
  get droppedCount(): number {
    return this.dropped;
  }

  /** Every kept message, oldest first (a copy). */
  toArray(): FlowMessage[] {
    return this.items.slice(this.start);
  }

  /** The kept messages that pass `f`, oldest first. */
  select(f: FlowFilter): FlowMessage[] {
    const out: FlowMessage[] = [];
    for (let i = this.start; i < this.items.length; i++) if (matches(this.items[i]!, f)) out.push(this.items[i]!);
    return out;
  }

  /** The newest `n` kept messages that pass `f`, oldest first, found from the end (cheap however many are kept). */
  last(n: number, f: FlowFilter): FlowMessage[] {
    const out: FlowMessage[] = [];
    for (let i = this.items.length - 1; i >= this.start && out.length < n; i--) if (matches(this.items[i]!, f)) out.push(this.items[i]!);
    return out.reverse();
  }

  clear(): void {
    this.items = [];
    this.start = 0;
  }
}

export interface FlowFilter {
  /** Only this node's messages. */
  node?: string;
  /** Only messages from or to this component (`kubelet`, `apiserver` …). */
  component?: string;
  /** Only messages about objects whose `namespace/name` contains this text. */
  object?: string;
  /** Only these kinds. */
  kinds?: ReadonlySet<FlowKind>;
  /** Also the relist CRI calls (hidden by default, a failed one always shown). */
  relist?: boolean;
}

export function matches(m: FlowMessage, f: FlowFilter): boolean {
  if (!f.relist && m.kind === 'cri' && RELIST_METHODS.has(m.method) && (m.code ?? 'OK') === 'OK') return false;
  if (f.node && m.node !== f.node) return false;
  if (f.component && componentOf(m.from) !== f.component && componentOf(m.to) !== f.component) return false;
  if (f.object && !objectKey(m).includes(f.object)) return false;
  if (f.kinds && !f.kinds.has(m.kind)) return false;
  return true;
}

/** The order of lanes in a pod's story: the path a pod start takes. */
const LANE_ORDER = ['kubectl', 'dashboard', 'controller-manager', 'apiserver', 'nats', 'scheduler', 'kubelet', 'containerd', 'kube-proxy'];

function laneRank(lane: string): number {
  const r = LANE_ORDER.indexOf(componentOf(lane));
  return r < 0 ? LANE_ORDER.length : r;
}

export interface StoryStep {
  from: string;
  to: string;
  method: string;
  /** ms after the story's first message. */
  atMs: number;
  durationMs?: number;
  code?: string;
  detail?: string;
  kind: FlowKind;
}

export interface PodStory {
  pod: string;
  lanes: string[];
  steps: StoryStep[];
  startedAt: number;
}

/** Whether a message is about pod `ns/name`: its own, or its controller's Event creating or deleting it (`Created pod: NAME`). */
function concerns(m: FlowMessage, pod: string): boolean {
  if ((m.objectKind ?? 'Pod') === 'Pod') return objectKey(m) === pod;
  if (m.kind !== 'event' || !m.detail || (m.method !== 'SuccessfulCreate' && m.method !== 'SuccessfulDelete')) return false;
  const slash = pod.indexOf('/');
  return m.namespace === pod.slice(0, slash) && / pod: (\S+)$/.exec(m.detail)?.[1] === pod.slice(slash + 1);
}

/** The messages about pod `ns/name` (relist calls left out), as lanes and steps in start-time order. */
export function podStory(messages: readonly FlowMessage[], pod: string): PodStory {
  const mine = messages.filter((m) => concerns(m, pod) && matches(m, {})).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  const seen = new Map<string, number>();
  for (const m of mine) for (const l of [m.from, m.to]) if (!seen.has(l)) seen.set(l, seen.size);
  const lanes = [...seen.keys()].sort((a, b) => laneRank(a) - laneRank(b) || seen.get(a)! - seen.get(b)!);
  const startedAt = mine[0]?.time ?? 0;
  const steps = mine.map((m) => ({
    from: m.from,
    to: m.to,
    method: m.method,
    atMs: m.time - startedAt,
    kind: m.kind,
    ...(m.durationMs !== undefined ? { durationMs: m.durationMs } : {}),
    ...(m.code ? { code: m.code } : {}),
    ...(m.detail ? { detail: m.detail } : {}),
  }));
  return { pod, lanes, steps, startedAt };
}

/** The pods the messages name, grouped by pod (`ns/name`), newest first. */
export function storyPods(messages: readonly FlowMessage[]): string[] {
  const last = new Map<string, number>();
  for (const m of messages) {
    if ((m.objectKind ?? 'Pod') !== 'Pod') continue;
    const k = objectKey(m);
    if (k) last.set(k, Math.max(last.get(k) ?? 0, m.time));
  }
  return [...last.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
}
