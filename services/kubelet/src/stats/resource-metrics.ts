// /metrics/resource (upstream pkg/kubelet/metrics/collectors/resource_metrics.go):
// the CPU and memory series metrics-server scrapes, from the same summary as
// /stats/summary, in Prometheus' text format with each sample's timestamp.
// Hand-written rather than through prom-client because the series are
// per-scrape snapshots (no collector lingers for a deleted container) and
// carry the sample time, which prom-client's registry does not emit.

import type { StatsSummary } from './summary.js';

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  samples: { labels: Record<string, string>; value: number; time?: string }[];
}

const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

function labelText(labels: Record<string, string>): string {
  const keys = Object.keys(labels).sort();
  return keys.length ? `{${keys.map((k) => `${k}="${escape(labels[k]!)}"`).join(',')}}` : '';
}

/** Go's strconv.FormatFloat(v, 'g', -1, 64), as the Prometheus client writes values: the shortest digits, exponent form below 1e-4 and from 1e6 up (`1.7648e+09`). */
export function formatValue(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'NaN' : v > 0 ? '+Inf' : '-Inf';
  if (v === 0) return '0';
  const [mantissa, e] = v.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}

/** The resource metrics of one summary; undefined = the summary could not be had (only the error gauges, at 1). */
export function resourceMetricsText(summary: StatsSummary | undefined): string {
  const families: Family[] = [
    { name: 'container_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the container in core-seconds', type: 'counter', samples: [] },
    { name: 'container_memory_working_set_bytes', help: '[STABLE] Current working set of the container in bytes', type: 'gauge', samples: [] },
    { name: 'container_start_time_seconds', help: '[STABLE] Start time of the container since unix epoch in seconds', type: 'gauge', samples: [] },
    { name: 'node_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the node in core-seconds', type: 'counter', samples: [] },
    { name: 'node_memory_working_set_bytes', help: '[STABLE] Current working set of the node in bytes', type: 'gauge', samples: [] },
    { name: 'pod_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the pod in core-seconds', type: 'counter', samples: [] },
    { name: 'pod_memory_working_set_bytes', help: '[STABLE] Current working set of the pod in bytes', type: 'gauge', samples: [] },
    { name: 'resource_scrape_error', help: '[STABLE] 1 if there was an error while getting container metrics, 0 otherwise', type: 'gauge', samples: [] },
    { name: 'scrape_error', help: '[ALPHA] (Deprecated since 1.29.0) 1 if there was an error while getting container metrics, 0 otherwise', type: 'gauge', samples: [] },
  ];
  const family = (name: string) => families.find((f) => f.name === name)!;
  const add = (name: string, labels: Record<string, string>, value: number | undefined, time?: string) => {
    if (value !== undefined) family(name).samples.push({ labels, value, ...(time ? { time } : {}) });
  };
  const error = summary ? 0 : 1;
  add('resource_scrape_error', {}, error);
  add('scrape_error', {}, error);
  if (summary) {
    const n = summary.node;
    add('node_cpu_usage_seconds_total', {}, n.cpu?.usageCoreNanoSeconds !== undefined ? n.cpu.usageCoreNanoSeconds / 1e9 : undefined, n.cpu?.time);
    add('node_memory_working_set_bytes', {}, n.memory?.workingSetBytes, n.memory?.time);
    for (const p of summary.pods) {
      const pod = { pod: p.podRef.name, namespace: p.podRef.namespace };
      for (const c of p.containers) {
        const labels = { container: c.name, ...pod };
        const start = Date.parse(c.startTime) / 1000;
        if (start > 0) add('container_start_time_seconds', labels, start);
        add('container_cpu_usage_seconds_total', labels, c.cpu?.usageCoreNanoSeconds !== undefined ? c.cpu.usageCoreNanoSeconds / 1e9 : undefined, c.cpu?.time);
        add('container_memory_working_set_bytes', labels, c.memory?.workingSetBytes, c.memory?.time);
      }
      add('pod_cpu_usage_seconds_total', pod, p.cpu?.usageCoreNanoSeconds !== undefined ? p.cpu.usageCoreNanoSeconds / 1e9 : undefined, p.cpu?.time);
      add('pod_memory_working_set_bytes', pod, p.memory?.workingSetBytes, p.memory?.time);
    }
  }
  const out: string[] = [];
  for (const f of families) {
    if (!f.samples.length) continue;
    out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
    // The Go client orders a family's series by their label values.
    const lines = f.samples.map((s) => ({ labels: labelText(s.labels), s }));
    lines.sort((a, b) => (a.labels < b.labels ? -1 : a.labels > b.labels ? 1 : 0));
    for (const { labels, s } of lines) out.push(`${f.name}${labels} ${formatValue(s.value)}${s.time ? ` ${Date.parse(s.time)}` : ''}`);
  }
  return `${out.join('\n')}\n`;
}
