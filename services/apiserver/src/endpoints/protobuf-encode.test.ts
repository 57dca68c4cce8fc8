import { describe, expect, it } from 'vitest';
import { RESOURCES, type KubeObject } from '@kubelab/api';
import { decodeProtobuf } from './protobuf.js';
import { encodeList, encodeObject, encodeWatchEvent, hasProtobuf, NotEncodableError } from './protobuf-encode.js';
import { OBJECTS, POD } from './testdata/objects.js';

type Json = unknown;

/** Go's zero values and absent fields are one on the wire for a non-pointer field: drop both before comparing. */
function dropZero(v: Json): Json {
  if (Array.isArray(v)) return v.map(dropZero);
  if (v && typeof v === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, x] of Object.entries(v)) {
      const d = dropZero(x);
      const empty = d === null || d === '' || d === 0 || d === false || (Array.isArray(d) && d.length === 0) || (typeof d === 'object' && d !== null && Object.keys(d).length === 0);
      if (!empty) out[k] = d;
    }
    return out;
  }
  return v;
}

describe('protobuf round trip: encode then decode gives the object back', () => {
  it('covers every served kind with a message', () => {
    expect(RESOURCES.map((r) => r.kind).filter((k) => hasProtobuf(k) && !OBJECTS[k])).toEqual([]);
  });

  it.each(Object.entries(OBJECTS))('%s', (kind, obj) => {
    const bytes = encodeObject(obj as KubeObject, kind);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('k8s\0');
    expect(dropZero(decodeProtobuf(bytes))).toEqual(dropZero(obj));
  });

  it('keeps what a Go pointer distinguishes: replicas 0, automount false, a MicroTime to the microsecond', () => {
    const rs = decodeProtobuf(encodeObject(OBJECTS.ReplicaSet as KubeObject, 'ReplicaSet')) as KubeObject & { spec: { replicas: number } };
    expect(rs.spec.replicas).toBe(0);
    const sa = decodeProtobuf(encodeObject(OBJECTS.ServiceAccount as KubeObject, 'ServiceAccount')) as KubeObject & { automountServiceAccountToken: boolean };
    expect(sa.automountServiceAccountToken).toBe(false);
    const lease = decodeProtobuf(encodeObject(OBJECTS.Lease as KubeObject, 'Lease')) as KubeObject & { spec: { renewTime: string; acquireTime: string } };
    expect(lease.spec).toMatchObject({ renewTime: '2025-06-01T12:00:00.123456Z', acquireTime: '2025-06-01T11:00:00.000001Z' });
  });

  it('ends the Unknown with empty contentEncoding and contentType, as Go writes them', () => {
    expect([...encodeObject(OBJECTS.ConfigMap as KubeObject, 'ConfigMap').subarray(-4)]).toEqual([0x1a, 0x00, 0x22, 0x00]);
  });

  it('a free-form field without a known message is not encodable (the response falls back to JSON)', () => {
    const pod = structuredClone(POD) as unknown as { spec: { volumes: Record<string, unknown>[] } };
    pod.spec.volumes.push({ name: 'n', nfs: { server: 'nfs', path: '/' } });
    expect(() => encodeObject(pod as unknown as KubeObject, 'Pod')).toThrow(NotEncodableError);
  });

  it('Table and PartialObjectMetadata have no message here; every served kind has one', () => {
    expect(hasProtobuf('Table')).toBe(false);
    expect(hasProtobuf('PartialObjectMetadata')).toBe(false);
    // CustomResourceDefinition's apiextensions types are not numbered yet: it answers JSON.
    expect(RESOURCES.filter((r) => !hasProtobuf(r.kind)).map((r) => r.kind)).toEqual(['CustomResourceDefinition']);
  });
});

/** A varint at `pos` and where it ends. */
function readVarint(b: Uint8Array, pos: number): [number, number] {
  let v = 0;
  let mul = 1;
  for (;;) {
    const x = b[pos++]!;
    v += (x & 0x7f) * mul;
    if (x < 0x80) return [v, pos];
    mul *= 128;
  }
}

/** The top-level fields of a message: number → list of length-delimited payloads. */
function lengthDelimited(b: Uint8Array): Map<number, Uint8Array[]> {
  const out = new Map<number, Uint8Array[]>();
  let pos = 0;
  while (pos < b.length) {
    let tag: number;
    [tag, pos] = readVarint(b, pos);
    let len: number;
    [len, pos] = readVarint(b, pos);
    out.set(tag >>> 3, [...(out.get(tag >>> 3) ?? []), b.subarray(pos, pos + len)]);
    pos += len;
  }
  return out;
}

describe('lists and watch frames', () => {
  it('a PodList: the Unknown names the list kind; its raw is {1 ListMeta, 2 items}', () => {
    const body = encodeList(
      { metadata: { resourceVersion: '77', continue: 'tok', remainingItemCount: 3 }, items: [POD as unknown as KubeObject, POD as unknown as KubeObject] },
      'v1',
      'Pod',
      'PodList',
    );
    const unknown = lengthDelimited(body.subarray(4));
    const typeMeta = lengthDelimited(unknown.get(1)![0]!);
    expect(Buffer.from(typeMeta.get(2)![0]!).toString()).toBe('PodList');
    const list = lengthDelimited(unknown.get(2)![0]!);
    expect(list.get(2)).toHaveLength(2);
    const listMeta = unknown.get(2)![0]!.subarray(2, 2 + list.get(1)![0]!.length);
    expect(Buffer.from(listMeta).toString('latin1')).toContain('77');
    // Each item is the Pod message itself (no Unknown): wrapping it again gives the pod back.
    const wrapped = encodeObject(POD as unknown as KubeObject, 'Pod');
    const podRaw = lengthDelimited(wrapped.subarray(4)).get(2)![0]!;
    expect(Buffer.from(list.get(2)![0]!).equals(Buffer.from(podRaw))).toBe(true);
  });

  it('a watch frame: big-endian length, then WatchEvent {1 type, 2 RawExtension {1 the encoded object}}', () => {
    const frame = encodeWatchEvent('ADDED', OBJECTS.ConfigMap as KubeObject, 'ConfigMap');
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    const ev = lengthDelimited(frame.subarray(4));
    expect(Buffer.from(ev.get(1)![0]!).toString()).toBe('ADDED');
    const raw = lengthDelimited(ev.get(2)![0]!).get(1)![0]!;
    expect(dropZero(decodeProtobuf(raw))).toEqual(dropZero(OBJECTS.ConfigMap));
  });

  it('an ERROR frame carries a v1 Status', () => {
    const frame = encodeWatchEvent('ERROR', { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (5)', reason: 'Expired', code: 410 }, 'Pod');
    const raw = lengthDelimited(lengthDelimited(frame.subarray(4)).get(2)![0]!).get(1)![0]!;
    const unknown = lengthDelimited(Buffer.from(raw).subarray(4));
    expect(Buffer.from(lengthDelimited(unknown.get(1)![0]!).get(2)![0]!).toString()).toBe('Status');
    expect(Buffer.from(unknown.get(2)![0]!).toString('latin1')).toContain('too old resource version: 1 (5)');
  });
});
