import { describe, expect, it } from 'vitest';
import { FlagSet } from '@kubelab/component-base';
import { resolveTracingConfig, tracingOptionsFromFlags, type TracingOptions } from './config.js';
import { addTracingFlags } from './flags.js';

describe('resolveTracingConfig', () => {
  const cases: { name: string; opts?: Partial<TracingOptions>; env?: NodeJS.ProcessEnv; want: object }[] = [
    { name: 'nothing set: off, parent-based sampling', want: { serviceName: 'kubelet' } },
    { name: 'upstream host:port endpoint gets http://', opts: { endpoint: 'jaeger:4317' }, want: { serviceName: 'kubelet', endpoint: 'http://jaeger:4317' } },
    { name: 'URL kept, trailing slash dropped', opts: { endpoint: 'https://otel.example:4317/' }, want: { serviceName: 'kubelet', endpoint: 'https://otel.example:4317' } },
    {
      name: 'KUBELAB_TRACING_* env (what the flags read)',
      env: { KUBELAB_TRACING_ENDPOINT: '127.0.0.1:4317', KUBELAB_TRACING_SAMPLING_RATE_PER_MILLION: '1000000' },
      want: { serviceName: 'kubelet', endpoint: 'http://127.0.0.1:4317', samplingRatePerMillion: 1_000_000 },
    },
    { name: 'standard OTEL env', env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317' }, want: { serviceName: 'kubelet', endpoint: 'http://collector:4317' } },
    {
      name: 'traces-specific OTEL env wins over the generic one',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4317', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4317' },
      want: { serviceName: 'kubelet', endpoint: 'http://b:4317' },
    },
    {
      name: 'options win over env',
      opts: { endpoint: 'x:1', samplingRatePerMillion: 10 },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4317', KUBELAB_TRACING_SAMPLING_RATE_PER_MILLION: '5' },
      want: { serviceName: 'kubelet', endpoint: 'http://x:1', samplingRatePerMillion: 10 },
    },
    { name: 'node recorded', opts: { node: 'node-2' }, want: { serviceName: 'kubelet', node: 'node-2' } },
    { name: 'rate 0 is explicit', opts: { samplingRatePerMillion: 0 }, want: { serviceName: 'kubelet', samplingRatePerMillion: 0 } },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(resolveTracingConfig({ serviceName: 'kubelet', ...c.opts }, c.env ?? {})).toEqual(c.want);
    });
  }

  const errors: { name: string; opts: Partial<TracingOptions>; env?: NodeJS.ProcessEnv; message: string }[] = [
    { name: 'negative rate', opts: { samplingRatePerMillion: -2 }, message: 'tracing.samplingRatePerMillion: Invalid value: -2: sampling rate must be positive' },
    {
      name: 'rate above a million',
      opts: { samplingRatePerMillion: 1_000_001 },
      message: 'tracing.samplingRatePerMillion: Invalid value: 1000001: sampling rate per million must be less than or equal to one million',
    },
    { name: 'rate not a number in env', opts: {}, env: { KUBELAB_TRACING_SAMPLING_RATE_PER_MILLION: 'all' }, message: 'tracing.samplingRatePerMillion: Invalid value: "all": must be a whole number' },
    { name: 'endpoint with another scheme', opts: { endpoint: 'unix:///run/otel.sock' }, message: 'tracing.endpoint: Invalid value: "unix:///run/otel.sock": scheme must be http or https' },
    { name: 'empty service name', opts: { serviceName: '' }, message: 'tracing: serviceName must not be empty' },
  ];
  for (const c of errors) {
    it(`rejects ${c.name}`, () => {
      expect(() => resolveTracingConfig({ serviceName: 'kubelet', ...c.opts }, c.env ?? {})).toThrow(c.message);
    });
  }
});

describe('tracing flags', () => {
  it('declares --tracing-endpoint and --tracing-sampling-rate-per-million with unset defaults', () => {
    const fs = addTracingFlags(new FlagSet('kubelet').string('hostname-override', '', 'node name'));
    expect(tracingOptionsFromFlags(fs.parse([], {}).values)).toEqual({});
    const { values } = fs.parse(['--tracing-endpoint=jaeger:4317', '--tracing-sampling-rate-per-million', '1000000'], {});
    expect(tracingOptionsFromFlags(values)).toEqual({ endpoint: 'jaeger:4317', samplingRatePerMillion: 1_000_000 });
    expect(tracingOptionsFromFlags(fs.parse([], { KUBELAB_TRACING_ENDPOINT: 'c:4317' }).values)).toEqual({ endpoint: 'c:4317' });
  });
});
