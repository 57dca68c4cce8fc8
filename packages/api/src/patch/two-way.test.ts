import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch } from './strategic.js';
import { createTwoWayMergePatch } from './two-way.js';
import type { JsonObject } from './util.js';

const cond = (type: string, status: string, heartbeat: string) => ({ type, status, lastHeartbeatTime: heartbeat, reason: `Kubelet${type}` });

function node(status: JsonObject, metadata: JsonObject = {}, spec: JsonObject = {}): JsonObject {
  return { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', resourceVersion: '7', ...metadata }, spec, status };
}

describe('createTwoWayMergePatch (upstream strategicpatch.CreateTwoWayMergePatch)', () => {
  it.each<[string, JsonObject, JsonObject, JsonObject]>([
    ['equal objects: an empty patch', node({ phase: 'Running' }), node({ phase: 'Running' }), {}],
    ['a changed scalar and a removed field', node({ phase: 'Running', config: { x: 1 } }), node({ phase: 'Pending' }), { status: { phase: 'Pending', config: null } }],
    [
      'a heartbeat: only that condition, by its merge key, and the order of all',
      node({ conditions: [cond('MemoryPressure', 'False', 't1'), cond('Ready', 'True', 't1')] }),
      node({ conditions: [cond('MemoryPressure', 'False', 't1'), cond('Ready', 'True', 't2')] }),
      { status: { conditions: [{ type: 'Ready', lastHeartbeatTime: 't2' }], '$setElementOrder/conditions': [{ type: 'MemoryPressure' }, { type: 'Ready' }] } },
    ],
    [
      'a condition added and one gone',
      node({ conditions: [cond('A', 'False', 't1'), cond('B', 'False', 't1')] }),
      node({ conditions: [cond('B', 'False', 't1'), cond('C', 'True', 't1')] }),
      {
        status: {
          conditions: [cond('C', 'True', 't1'), { type: 'A', $patch: 'delete' }],
          '$setElementOrder/conditions': [{ type: 'B' }, { type: 'C' }],
        },
      },
    ],
    [
      'only the order changed: the order directive alone',
      node({ conditions: [cond('A', 'False', 't1'), cond('B', 'False', 't1')] }),
      node({ conditions: [cond('B', 'False', 't1'), cond('A', 'False', 't1')] }),
      { status: { '$setElementOrder/conditions': [{ type: 'B' }, { type: 'A' }] } },
    ],
    ['a merged list that was empty goes whole', node({}), node({ conditions: [cond('Ready', 'True', 't1')] }), { status: { conditions: [cond('Ready', 'True', 't1')] } }],
    [
      'an atomic list (images) goes whole when it changed',
      node({ images: [{ names: ['a'], sizeBytes: 1 }] }),
      node({
        images: [
          { names: ['a'], sizeBytes: 1 },
          { names: ['b'], sizeBytes: 2 },
        ],
      }),
      {
        status: {
          images: [
            { names: ['a'], sizeBytes: 1 },
            { names: ['b'], sizeBytes: 2 },
          ],
        },
      },
    ],
    [
      'a merged list of primitives (finalizers): additions, removals beside them, the order',
      node({}, { finalizers: ['a', 'b'] }),
      node({}, { finalizers: ['b', 'c'] }),
      { metadata: { finalizers: ['c'], '$deleteFromPrimitiveList/finalizers': ['a'], '$setElementOrder/finalizers': ['b', 'c'] } },
    ],
    [
      'taints are atomic: the new list replaces the old',
      node({}, {}, { taints: [{ key: 'a', effect: 'NoSchedule' }] }),
      node(
        {},
        {},
        {
          taints: [
            { key: 'a', effect: 'NoSchedule' },
            { key: 'b', effect: 'NoExecute' },
          ],
        },
      ),
      {
        spec: {
          taints: [
            { key: 'a', effect: 'NoSchedule' },
            { key: 'b', effect: 'NoExecute' },
          ],
        },
      },
    ],
    [
      'items with the same merge key pair up in order (dual-stack addresses, unchanged)',
      node({
        addresses: [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'InternalIP', address: 'fd00::1' },
        ],
      }),
      node({
        addresses: [
          { type: 'InternalIP', address: '10.0.0.1' },
          { type: 'InternalIP', address: 'fd00::1' },
        ],
      }),
      {},
    ],
    [
      'null where nothing was changes nothing; an undefined field is absent',
      node({ phase: 'Running', message: 'm' }),
      node({ phase: 'Running', reason: null, message: undefined }),
      { status: { message: null } },
    ],
    ['a nested map diffs field by field', node({ capacity: { cpu: '2', memory: '1Gi' } }), node({ capacity: { cpu: '4', memory: '1Gi' } }), { status: { capacity: { cpu: '4' } } }],
  ])('%s', (_name, original, modified, want) => {
    const patch = createTwoWayMergePatch(original, modified, 'Node');
    expect(patch).toEqual(want);
    // What the server makes of it is the modified object (null and undefined fields are absent ones).
    expect(applyStrategicMergePatch(original, patch, 'Node')).toEqual(JSON.parse(JSON.stringify(modified, (_k, v: unknown) => (v === null ? undefined : v))));
  });
});
