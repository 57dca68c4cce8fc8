import { headers } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { natsProcess } from './nats.js';
import { setupTracing } from './setup.js';
import { setupTestTracing, summarizeSpan } from './testing.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const subject = '$KV.kubelab.core.pods.default.web';

function withTraceparent(flags: '01' | '00') {
  const h = headers();
  h.set('Nats-Expected-Last-Subject-Sequence', '0');
  h.set('traceparent', `00-${TRACE}-${SPAN}-${flags}`);
  return h;
}

describe('natsProcess', () => {
  it("continues the publisher's sampled traceparent in a CONSUMER span that is active for the processing", () => {
    const t = setupTestTracing('apiserver');
    let active: string | undefined;
    const out = natsProcess(
      t.tracing,
      subject,
      () => withTraceparent('01'),
      () => {
        active = t.tracing.tracer.startSpan('inner').spanContext().traceId;
        return 7;
      },
      { template: '$KV.kubelab.>', bodySize: 42, attributes: () => ({ key: 'core/pods/default/web' }) },
    );
    expect(out).toBe(7);
    const consumer = t.spans().find((s) => s.name === 'process $KV.kubelab.>')!;
    expect(summarizeSpan(consumer)).toMatchObject({ kind: 'CONSUMER', traceId: TRACE, parentSpanId: SPAN });
    expect(consumer.attributes).toEqual({
      'messaging.system': 'nats',
      'messaging.destination.name': subject,
      'messaging.destination.template': '$KV.kubelab.>',
      'messaging.operation.name': 'process',
      'messaging.operation.type': 'process',
      'messaging.message.body.size': 42,
      key: 'core/pods/default/web',
    });
    expect(active).toBe(TRACE);
  });

  it('records no span for an unsampled traceparent, or for a message without one', () => {
    const t = setupTestTracing('apiserver');
    expect(
      natsProcess(
        t.tracing,
        subject,
        () => withTraceparent('00'),
        () => 'a',
      ),
    ).toBe('a');
    expect(
      natsProcess(
        t.tracing,
        subject,
        () => headers(),
        () => 'b',
      ),
    ).toBe('b');
    expect(
      natsProcess(
        t.tracing,
        subject,
        () => undefined,
        () => 'c',
      ),
    ).toBe('c');
    expect(t.spans()).toEqual([]);
  });

  it('off: does not even read the headers', () => {
    const off = setupTracing({ serviceName: 'apiserver', env: {} });
    let read = false;
    expect(
      natsProcess(
        off,
        subject,
        () => ((read = true), withTraceparent('01')),
        () => 'x',
      ),
    ).toBe('x');
    expect(read).toBe(false);
  });

  it('a processing that throws ends its span with the exception and rethrows', () => {
    const t = setupTestTracing('apiserver');
    expect(() =>
      natsProcess(
        t.tracing,
        subject,
        () => withTraceparent('01'),
        () => {
          throw new Error('bad entry');
        },
      ),
    ).toThrow('bad entry');
    expect(t.spans().map((s) => [s.name, s.events.map((e) => e.attributes?.['exception.message'])])).toEqual([[`process ${subject}`, ['bad entry']]]);
  });
});
