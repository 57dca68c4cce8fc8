// Pre-encoded watch events must decode, with the proto's own decoder, to
// exactly what protobuf-encoding the WatchEvent objects would have given.
import { apiserverProto } from '@kubelab/proto';
import type * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { attachRaw } from '../cache/raw.js';
import { encodedEvent, watchMessage, withEncodedWatch } from './watch-encoding.js';

const service = withEncodedWatch(apiserverProto().kubelab.apiserver.v1.ResourceService.service);
const watch = service.Watch as grpc.MethodDefinition<unknown, { type: string; object: Buffer; batch: Array<{ type: string; object: Buffer }> }>;
const wire = (msg: Buffer | Buffer[]) => watch.responseDeserialize(watch.responseSerialize(msg as never));

function cached(name: string, filler = ''): object {
  const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, resourceVersion: '42' }, data: { filler } };
  attachRaw(obj, { buf: Buffer.from(JSON.stringify(obj)) });
  return obj;
}

describe('pre-encoded watch events', () => {
  it('a lone event decodes to its type and the object JSON', () => {
    const obj = cached('a');
    const [msg] = watchMessage([{ type: 'ADDED', object: obj }], true);
    const got = wire(msg!);
    expect(got.type).toBe('ADDED');
    expect(JSON.parse(got.object.toString())).toEqual(obj);
    expect(got.batch).toEqual([]);
  });

  it('a batch decodes to the events in order, objects of any size (multi-byte lengths)', () => {
    const objs = [cached('a'), cached('b', 'x'.repeat(200_000)), cached('c', 'ü'.repeat(100))];
    const types = ['ADDED', 'MODIFIED', 'DELETED'];
    const msgs = watchMessage(
      objs.map((object, i) => ({ type: types[i]!, object })),
      true,
    );
    expect(msgs).toHaveLength(1);
    const got = wire(msgs[0]!);
    expect(got.type).toBe('');
    expect(got.batch.map((e) => [e.type, JSON.parse(e.object.toString())])).toEqual(objs.map((o, i) => [types[i], o]));
  });

  it('without allow_batch every event is its own message', () => {
    const msgs = watchMessage(
      [
        { type: 'ADDED', object: cached('a') },
        { type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '9' } } },
      ],
      false,
    );
    expect(msgs.map((m) => wire(m).type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(JSON.parse(wire(msgs[1]!).object.toString())).toEqual({ kind: 'ConfigMap', metadata: { resourceVersion: '9' } });
  });

  it('encodes an event once for all watchers, per type', () => {
    const obj = cached('a');
    expect(encodedEvent({ type: 'ADDED', object: obj })).toBe(encodedEvent({ type: 'ADDED', object: obj }));
    expect(wire(encodedEvent({ type: 'DELETED', object: obj }).event).type).toBe('DELETED');
  });

  it('still serializes plain WatchEvent objects (other writers of the stream)', () => {
    const got = wire({ type: 'ERROR', object: Buffer.from('{"kind":"Status","code":410}') } as never);
    expect([got.type, got.object.toString()]).toEqual(['ERROR', '{"kind":"Status","code":410}']);
  });
});
