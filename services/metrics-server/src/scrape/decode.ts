// The kubelet's /metrics/resource as metrics-server reads it (upstream:
// metrics-server pkg/scraper/client/resource/decode.go): per node and per
// container the cumulative CPU seconds and the memory working set, with the
// sample's timestamp (the scrape's time when the kubelet gave none), and the
// container's start time.

/** One reading of a node or a container (upstream storage.MetricsPoint). */
export interface MetricsPoint {
  /** The sample time, ms since the epoch. */
  timestamp: number;
  /** Cumulative CPU used, in core-nanoseconds. */
  cumulativeCpuUsed: number;
  memoryUsage: number;
  /** The container's (or node's) start time, ms since the epoch; 0 when unknown. */
  startTime: number;
}

export interface PodRef {
  namespace: string;
  name: string;
}

/** What one scrape of one node gave (upstream storage.MetricsBatch's share of a node). */
export interface NodeBatch {
  node?: MetricsPoint;
  /** By pod (`namespace/name`), then container name. */
  pods: Map<string, { ref: PodRef; containers: Map<string, MetricsPoint> }>;
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
  timestamp?: number;
}

/** One exposition line `name{a="b",…} value [timestamp]`; undefined for comments, blanks and what does not parse. */
export function parseSampleLine(line: string): Sample | undefined {
  const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?\s*$/.exec(line);
  if (!m) return undefined;
  const labels: Record<string, string> = {};
  if (m[3]) {
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g;
    let l: RegExpExecArray | null;
    while ((l = re.exec(m[3]))) labels[l[1]!] = l[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  const value = m[4] === '+Inf' ? Infinity : m[4] === '-Inf' ? -Infinity : Number(m[4]);
  if (Number.isNaN(value) && m[4] !== 'NaN') return undefined;
  return { name: m[1]!, labels, value, ...(m[5] !== undefined ? { timestamp: Number(m[5]) } : {}) };
}

/** The node's and its containers' points from one /metrics/resource body; `scrapeTime` stands in for missing timestamps. */
export function decodeResourceMetrics(text: string, scrapeTime: number): NodeBatch {
  const node: Partial<MetricsPoint> = {};
  const containers = new Map<string, { ref: PodRef; container: string; point: Partial<MetricsPoint> }>();
  const containerOf = (l: Record<string, string>) => {
    if (!l.namespace || !l.pod || !l.container) return undefined;
    const key = `${l.namespace}/${l.pod}/${l.container}`;
    let c = containers.get(key);
    if (!c) containers.set(key, (c = { ref: { namespace: l.namespace, name: l.pod }, container: l.container, point: {} }));
    return c.point;
  };
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const s = parseSampleLine(line);
    if (!s || !Number.isFinite(s.value)) continue;
    const at = s.timestamp ?? scrapeTime;
    switch (s.name) {
      case 'node_cpu_usage_seconds_total':
        node.cumulativeCpuUsed = Math.round(s.value * 1e9);
        node.timestamp = at;
        break;
      case 'node_memory_working_set_bytes':
        node.memoryUsage = s.value;
        node.timestamp ??= at;
        break;
      case 'container_cpu_usage_seconds_total': {
        const p = containerOf(s.labels);
        if (p) {
          p.cumulativeCpuUsed = Math.round(s.value * 1e9);
          p.timestamp = at;
        }
        break;
      }
      case 'container_memory_working_set_bytes': {
        const p = containerOf(s.labels);
        if (p) {
          p.memoryUsage = s.value;
          p.timestamp ??= at;
        }
        break;
      }
      case 'container_start_time_seconds': {
        const p = containerOf(s.labels);
        if (p) p.startTime = Math.round(s.value * 1000);
        break;
      }
    }
  }
  const batch: NodeBatch = { pods: new Map() };
  // A point needs both CPU and memory (upstream drops the rest).
  const complete = (p: Partial<MetricsPoint>): MetricsPoint | undefined =>
    p.cumulativeCpuUsed !== undefined && p.memoryUsage !== undefined && p.timestamp !== undefined
      ? { timestamp: p.timestamp, cumulativeCpuUsed: p.cumulativeCpuUsed, memoryUsage: p.memoryUsage, startTime: p.startTime ?? 0 }
      : undefined;
  const n = complete(node);
  if (n) batch.node = n;
  for (const c of containers.values()) {
    const point = complete(c.point);
    if (!point) continue;
    const key = `${c.ref.namespace}/${c.ref.name}`;
    let pod = batch.pods.get(key);
    if (!pod) batch.pods.set(key, (pod = { ref: c.ref, containers: new Map() }));
    pod.containers.set(c.container, point);
  }
  return batch;
}
