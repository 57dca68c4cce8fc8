// Tracing configuration, shaped like upstream's TracingConfiguration
// (k8s.io/component-base/tracing/api/v1): an OTLP gRPC `endpoint` and a
// `samplingRatePerMillion`. Unset endpoint = tracing off. Unset rate = follow
// the parent's decision and never start a sampled trace (upstream's default).

export interface TracingOptions {
  /** service.name on every span (`kube-apiserver`, `kubelet`, ...). */
  serviceName: string;
  /** The node this process serves (kubelet, containerd, kube-proxy); k8s.node.name. */
  node?: string;
  /** OTLP gRPC collector, `host:port` or `http://host:port` (upstream: insecure, default port 4317). */
  endpoint?: string;
  /** Samples per million root spans; children follow their parent. */
  samplingRatePerMillion?: number;
}

export interface ResolvedTracingConfig {
  serviceName: string;
  node?: string;
  /** Normalised to a URL (`http://host:port`); undefined = off. */
  endpoint?: string;
  /** undefined = parent-based, never sample roots. */
  samplingRatePerMillion?: number;
}

export class TracingConfigError extends Error {
  override name = 'TracingConfigError';
}

/** `--tracing-*` flag names, mirroring the TracingConfiguration fields. */
export const TRACING_FLAGS = {
  endpoint: 'tracing-endpoint',
  samplingRatePerMillion: 'tracing-sampling-rate-per-million',
} as const;

const ONE_MILLION = 1_000_000;

function fromEnv(env: NodeJS.ProcessEnv, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = env[n]?.trim();
    if (v) return v;
  }
  return undefined;
}

/** `collector:4317` → `http://collector:4317`; a URL is kept as given (without a trailing slash). */
export function normalizeEndpoint(raw: string): string {
  const s = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `http://${s}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new TracingConfigError(`tracing.endpoint: Invalid value: "${raw}": must be host:port or an http(s) URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TracingConfigError(`tracing.endpoint: Invalid value: "${raw}": scheme must be http or https`);
  if (!u.hostname) throw new TracingConfigError(`tracing.endpoint: Invalid value: "${raw}": host is empty`);
  return withScheme.replace(/\/+$/, '');
}

function parseRate(raw: number | string): number {
  const n = typeof raw === 'number' ? raw : /^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(n)) throw new TracingConfigError(`tracing.samplingRatePerMillion: Invalid value: "${raw}": must be a whole number`);
  if (n < 0) throw new TracingConfigError(`tracing.samplingRatePerMillion: Invalid value: ${n}: sampling rate must be positive`);
  if (n > ONE_MILLION) throw new TracingConfigError(`tracing.samplingRatePerMillion: Invalid value: ${n}: sampling rate per million must be less than or equal to one million`);
  return n;
}

/**
 * Options first, then KUBELAB_TRACING_* (what FlagSet reads for the flags),
 * then the standard OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT.
 */
export function resolveTracingConfig(opts: TracingOptions, env: NodeJS.ProcessEnv = process.env): ResolvedTracingConfig {
  if (!opts.serviceName) throw new TracingConfigError('tracing: serviceName must not be empty');
  const endpointRaw = opts.endpoint?.trim() || fromEnv(env, 'KUBELAB_TRACING_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const rateRaw = opts.samplingRatePerMillion ?? fromEnv(env, 'KUBELAB_TRACING_SAMPLING_RATE_PER_MILLION');
  const out: ResolvedTracingConfig = { serviceName: opts.serviceName };
  if (opts.node) out.node = opts.node;
  if (endpointRaw) out.endpoint = normalizeEndpoint(endpointRaw);
  if (rateRaw !== undefined && rateRaw !== -1) out.samplingRatePerMillion = parseRate(rateRaw);
  return out;
}

/** Values of the two flags as FlagSet returns them ('' and -1 mean unset). */
export function tracingOptionsFromFlags(values: Record<string, unknown>): Pick<TracingOptions, 'endpoint' | 'samplingRatePerMillion'> {
  const endpoint = values[TRACING_FLAGS.endpoint];
  const rate = values[TRACING_FLAGS.samplingRatePerMillion];
  const out: Pick<TracingOptions, 'endpoint' | 'samplingRatePerMillion'> = {};
  if (typeof endpoint === 'string' && endpoint !== '') out.endpoint = endpoint;
  if (typeof rate === 'number' && rate !== -1) out.samplingRatePerMillion = rate;
  return out;
}
