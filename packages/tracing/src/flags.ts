// The two tracing flags every component declares, named after the
// TracingConfiguration fields (upstream reads them from a config file; a
// flag each keeps kubelab's one configuration surface: flags + KUBELAB_* env).

import type { FlagSet } from '@kubelab/component-base';
import { TRACING_FLAGS } from './config.js';

export function addTracingFlags<T extends Record<string, unknown>>(fs: FlagSet<T>) {
  return fs
    .string(TRACING_FLAGS.endpoint, '', 'OTLP gRPC collector (host:port) to export traces to; empty = tracing off (also OTEL_EXPORTER_OTLP_ENDPOINT)')
    .int(TRACING_FLAGS.samplingRatePerMillion, -1, 'Sampled root spans per million; -1 (unset) follows the parent and never starts a sampled trace');
}
