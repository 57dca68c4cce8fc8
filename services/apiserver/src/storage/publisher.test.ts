// PubAck parsing of the pipelined publisher, and how its failures classify
// (the registry turns these kinds into 409 AlreadyExists / Conflict / 503).
import { describe, expect, it } from 'vitest';
import { classifyNatsError, checkKey, StorageError } from './kv.js';
import { MsgHdrsImpl } from '@nats-io/transport-node';
import { parsePubAck, writeHeaders } from './publisher.js';

const ack = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));

describe('parsePubAck', () => {
  it('returns the stream sequence: the new revision', () => {
    expect(parsePubAck(ack({ stream: 'KV_kubelab', seq: 1234 }))).toBe(1234);
    expect(parsePubAck(ack({ stream: 'KV_kubelab', domain: 'hub', seq: 7 }))).toBe(7);
    // Other shapes go through the full JSON parse.
    expect(parsePubAck(ack({ stream: 'KV_kubelab', seq: 99, duplicate: true }))).toBe(99);
    expect(parsePubAck(new TextEncoder().encode(' {"seq": 12, "stream": "KV_kubelab"}'))).toBe(12);
    // Read from the bytes, or parsed in full: the same answers.
    const te = new TextEncoder();
    expect(['{"stream":"KV_x","seq":0}', '{"stream":"KV_x","seq":123456789012345}', '{"stream":"","seq":5}'].map((t) => parsePubAck(te.encode(t)))).toEqual([0, 123456789012345, 5]);
    expect(parsePubAck(te.encode('{"stream":"KV_x","seq":}'))).toBeInstanceOf(Error);
    expect(parsePubAck(te.encode('{"stream":"KV_x","seq":12a}'))).toBeInstanceOf(Error);
    expect(parsePubAck(te.encode('{"stream":"K\\"V","seq":3}'))).toBe(3); // an escaped quote: the full parse reads it
  });

  it('a wrong last sequence is AlreadyExists for a create and stale for an update', () => {
    const err = parsePubAck(ack({ stream: 'KV_kubelab', error: { code: 400, err_code: 10071, description: 'wrong last sequence: 17' } }));
    expect(err).toBeInstanceOf(Error);
    expect([classifyNatsError(err, 'create').kind, classifyNatsError(err, 'update').kind]).toEqual(['exists', 'stale']);
    expect((err as Error).message).toBe('wrong last sequence: 17');
  });

  it("no responders (no leader serves the stream: JetStream down, or a NATS cluster without a majority) is etcd's no-quorum answer", () => {
    const e = classifyNatsError(parsePubAck(new Uint8Array(0), 503), 'create');
    expect([e.kind, e.message]).toEqual(['no-quorum', 'etcdserver: request timed out']);
  });

  it('garbage is unavailable', () => {
    expect(classifyNatsError(parsePubAck(ack({ nope: 1 })), 'create').kind).toBe('unavailable');
    expect((parsePubAck(ack({ nope: 1 })) as Error).message).toBe('invalid JetStream ack: no seq');
    expect((parsePubAck(new TextEncoder().encode('{')) as Error).message).toMatch(/^invalid JetStream ack: /);
  });
});

describe('writeHeaders', () => {
  const lib = (expected: number, op?: string, traceparent?: string) => {
    // The implementation class: the MsgHdrs interface does not declare encode().
    const h = new MsgHdrsImpl();
    h.set('Nats-Expected-Last-Subject-Sequence', String(expected));
    if (op) h.set('KV-Operation', op);
    if (traceparent) h.set('traceparent', traceparent);
    return new TextDecoder().decode(h.encode());
  };

  it('is the block the library encodes for the same headers', () => {
    expect(new TextDecoder().decode(writeHeaders(0))).toBe(lib(0));
    expect(new TextDecoder().decode(writeHeaders(4711, 'DEL'))).toBe(lib(4711, 'DEL'));
    expect(new TextDecoder().decode(writeHeaders(12))).toBe('NATS/1.0\r\nNats-Expected-Last-Subject-Sequence: 12\r\n\r\n');
  });

  it("carries a sampled write's traceparent (W3C trace context in NATS headers), readable by the library", () => {
    const tp = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(new TextDecoder().decode(writeHeaders(7, 'DEL', tp))).toBe(lib(7, 'DEL', tp));
    expect(new TextDecoder().decode(writeHeaders(0, undefined, tp))).toBe(`NATS/1.0\r\nNats-Expected-Last-Subject-Sequence: 0\r\ntraceparent: ${tp}\r\n\r\n`);
  });
});

describe('checkKey', () => {
  it('refuses what NATS KV refuses, as a bad-key StorageError', () => {
    expect(() => checkKey('/registry/configmaps/default/a.b-c')).not.toThrow();
    for (const k of ['/registry/pods/ns/a b', '.x', 'x.', '/registry/pods/ns/a*']) {
      const e = (() => {
        try {
          checkKey(k);
        } catch (err) {
          return err;
        }
      })();
      expect(e).toBeInstanceOf(StorageError);
      expect([(e as StorageError).kind, (e as StorageError).message]).toEqual(['bad-key', `invalid key: ${k}`]);
    }
  });
});
