// crictl's status output (util.go outputStatusData), shared by inspect,
// inspectp, inspecti, info and imagefsinfo: the status as protojson with
// crictl's readable timestamps, each verbose `info` entry parsed when it is a
// JSON object, all re-encoded by Go's encoding/json — so every object's keys
// come out sorted, <, > and & escaped — then indented (json) or as YAML.

import { stringify as yamlStringify } from 'yaml';

export interface StatusData {
  status?: unknown;
  runtimeHandlers?: unknown;
  features?: unknown;
  info?: Record<string, string>;
}

/** encoding/json's view of a value decoded into `any`: objects with sorted keys. */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

/** Go's json.Marshal escapes HTML characters in strings. */
export function goJsonEscape(text: string): string {
  return text.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function entry(d: StatusData): Record<string, unknown> {
  const m: Record<string, unknown> = {};
  if (d.status !== undefined) m.status = d.status;
  if (d.runtimeHandlers !== undefined && d.runtimeHandlers !== null) m.runtimeHandlers = d.runtimeHandlers;
  if (d.features !== undefined && d.features !== null) m.features = d.features;
  for (const k of Object.keys(d.info ?? {}).sort()) {
    const val = d.info![k]!;
    m[k] = val.startsWith('{') ? (JSON.parse(val) as unknown) : val.replace(/^"+|"+$/g, '');
  }
  return m;
}

/** The printed text (without the trailing newline fmt.Println adds); '' when there is nothing to print. */
export function formatStatusData(statuses: StatusData[], format: string): string {
  if (statuses.length === 0) return '';
  const result = statuses.map(entry);
  // Old behaviour kept upstream: a single entry is not wrapped in an array.
  const value = sortKeys(result.length === 1 ? result[0] : result);
  if (format === 'yaml') return yamlText(value);
  if (format === 'json') return goJsonEscape(JSON.stringify(value, null, 2));
  throw new Error(`unsupported format: "${format}"`);
}

/** sigs.k8s.io/yaml JSONToYAML: block style, keys sorted, two-space indent. */
export function yamlText(value: unknown): string {
  return yamlStringify(sortKeys(value), { indent: 2, lineWidth: 0, indentSeq: false });
}
