import { describe, expect, it } from 'vitest';
import { criProto } from './cri.js';
import { cachedListDeserializer, repeatedFieldSpans, withListCache } from './list-cache.js';

const list = criProto().runtime.v1.RuntimeService.service.ListContainers!;
const encode = list.responseSerialize as (msg: unknown) => Buffer;
const plain = list.responseDeserialize as (buf: Buffer) => { containers: Array<{ id: string; state: string; createdAt: string; labels: Record<string, string> }> };

function container(i: number, state = 'CONTAINER_RUNNING') {
  return {
    id: `c${i}`.padEnd(64, '0'),
    podSandboxId: `s${i}`.padEnd(64, '0'),
    metadata: { name: 'app', attempt: 0 },
    image: { image: 'busybox:1.36' },
    imageRef: `sha256:${'d'.repeat(64)}`,
    state,
    createdAt: String(1_733_300_000_000_000_000n + BigInt(i)),
    labels: { 'io.kubernetes.pod.name': `pod-${i}`, 'io.kubernetes.pod.namespace': 'default' },
    annotations: { 'io.kubernetes.container.restartCount': '0' },
  };
}
const answer = (...cs: ReturnType<typeof container>[]) => encode({ containers: cs });

describe('repeatedFieldSpans', () => {
  it.each([
    ['an empty message: no elements', [], []],
    ['one element', [0x0a, 0x02, 0x08, 0x01], [2, 4]],
    ['two elements, one empty', [0x0a, 0x00, 0x0a, 0x01, 0x08], [2, 2, 4, 5]],
    ['another field', [0x0a, 0x00, 0x12, 0x00], undefined],
    ['a length past the end', [0x0a, 0x05, 0x08], undefined],
    ['a length that never ends', [0x0a, 0x80], undefined],
  ] as const)('%s', (_name, bytes, want) => expect(repeatedFieldSpans(Uint8Array.from(bytes))).toEqual(want));

  it('reads a length of several varint bytes', () => {
    const buf = answer(...Array.from({ length: 3 }, (_, i) => container(i)));
    const spans = repeatedFieldSpans(buf)!;
    expect(spans).toHaveLength(6);
    expect(spans.at(-1)).toBe(buf.length);
    const big = encode({ containers: [{ ...container(0), labels: { big: 'x'.repeat(300) } }] });
    expect(big[1]! & 0x80).toBe(0x80); // the length takes two bytes
    expect(repeatedFieldSpans(big)).toEqual([3, big.length]);
  });
});

describe('cachedListDeserializer', () => {
  it('decodes as the plain deserializer does, and an unchanged answer gives the same objects', () => {
    const decode = cachedListDeserializer('containers', plain);
    const buf = answer(container(1), container(2), container(3));
    const first = decode(buf) as ReturnType<typeof plain>;
    expect(first).toEqual(plain(buf));
    const again = decode(Buffer.from(buf)) as ReturnType<typeof plain>;
    expect(again).toEqual(plain(buf));
    again.containers.forEach((c, i) => expect(c).toBe(first.containers[i]));
  });

  it('decodes only the changed element; an element gone before others leaves them reused by content', () => {
    const decode = cachedListDeserializer('containers', plain);
    const first = decode(answer(container(1), container(2), container(3))) as ReturnType<typeof plain>;
    const changed = decode(answer(container(1), container(2, 'CONTAINER_EXITED'), container(3))) as ReturnType<typeof plain>;
    expect(changed.containers.map((c) => c.state)).toEqual(['CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_RUNNING']);
    expect(changed.containers[0]).toBe(first.containers[0]);
    expect(changed.containers[1]).not.toBe(first.containers[1]);
    expect(changed.containers[2]).toBe(first.containers[2]);
    const removed = decode(answer(container(2, 'CONTAINER_EXITED'), container(3), container(4))) as ReturnType<typeof plain>;
    expect(removed).toEqual(plain(answer(container(2, 'CONTAINER_EXITED'), container(3), container(4))));
    expect(removed.containers[0]).toBe(changed.containers[1]);
    expect(removed.containers[1]).toBe(first.containers[2]);
  });

  it('hands out frozen elements: one reader cannot change what the next relist returns', () => {
    const decode = cachedListDeserializer('containers', plain);
    const [c] = (decode(answer(container(1))) as ReturnType<typeof plain>).containers;
    expect(() => {
      c!.state = 'CONTAINER_EXITED';
    }).toThrow(TypeError);
    expect(() => {
      c!.labels.x = 'y';
    }).toThrow(TypeError);
  });

  it('leaves any other message, and malformed bytes, to the plain deserializer', () => {
    const decode = cachedListDeserializer('containers', plain);
    const withOther = Buffer.concat([answer(container(1)), Buffer.from([0x10, 0x01])]); // field 2, varint: unknown, skipped by protobufjs
    expect(decode(withOther)).toEqual(plain(withOther));
    const truncated = answer(container(1)).subarray(0, 20);
    expect(() => plain(truncated)).toThrow();
    expect(() => decode(truncated)).toThrow();
  });
});

describe('withListCache', () => {
  it('replaces only the named methods, and refuses one the service lacks', () => {
    const def = criProto().runtime.v1.RuntimeService.service;
    const cached = withListCache(def, { ListContainers: 'containers' });
    expect(cached.ListContainers!.responseDeserialize).not.toBe(def.ListContainers!.responseDeserialize);
    expect(cached.Version).toBe(def.Version);
    expect(() => withListCache(def, { ListNothing: 'x' })).toThrow('no method ListNothing');
  });
});
