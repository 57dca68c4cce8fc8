import { describe, expect, it } from 'vitest';
import { FlowBuffer, matches, podStory, storyPods, type FlowFilter, type FlowMessage } from './flow.js';
import { apiMessage, criMessage, eventMessage } from './records.js';

let seq = 0;
function msg(time: number, over: Partial<FlowMessage> = {}): FlowMessage {
  return {
    seq: ++seq,
    time,
    kind: 'cri',
    from: 'kubelet(node-1)',
    to: 'containerd(node-1)',
    node: 'node-1',
    objectKind: 'Pod',
    namespace: 'default',
    name: 'web-1',
    method: 'StartContainer',
    code: 'OK',
    ...over,
  };
}

describe('FlowBuffer', () => {
  it('keeps the last `capacity` messages and counts the dropped ones', () => {
    const b = new FlowBuffer(3);
    const dropped = [1, 2, 3, 4, 5].flatMap((t) => b.push(msg(t)));
    expect(b.toArray().map((m) => m.time)).toEqual([3, 4, 5]);
    expect(dropped.map((m) => m.time)).toEqual([1, 2]);
    expect(b.droppedCount).toBe(2);
  });

  it('orders by start time: a slow call published late goes back to its place', () => {
    const b = new FlowBuffer(10);
    b.pushAll([msg(100, { method: 'RunPodSandbox' }), msg(300, { method: 'StartContainer' }), msg(200, { method: 'CreateContainer' })]);
    expect(b.toArray().map((m) => m.method)).toEqual(['RunPodSandbox', 'CreateContainer', 'StartContainer']);
  });

  it('keeps arrival order between messages of the same start time', () => {
    const b = new FlowBuffer(10);
    b.pushAll([msg(5, { method: 'a' }), msg(5, { method: 'b' }), msg(5, { method: 'c' })]);
    expect(b.toArray().map((m) => m.method)).toEqual(['a', 'b', 'c']);
  });

  it('drops the oldest by start time, not the oldest to arrive', () => {
    const b = new FlowBuffer(2);
    b.pushAll([msg(10), msg(20), msg(5)]);
    expect(b.toArray().map((m) => m.time)).toEqual([10, 20]);
  });

  it('stays bounded over many wraps, and finds the newest matching messages from the end', () => {
    const b = new FlowBuffer(100);
    for (let t = 0; t < 1000; t++) b.push(msg(t, { node: t % 2 ? 'node-1' : 'node-2' }));
    expect(b.size).toBe(100);
    expect(b.droppedCount).toBe(900);
    expect(b.toArray()[0]!.time).toBe(900);
    expect(b.last(3, { node: 'node-2' }).map((m) => m.time)).toEqual([994, 996, 998]);
    expect(b.select({ node: 'node-1' })).toHaveLength(50);
  });

  it.each([0, -1, 1.5])('refuses capacity %s', (c) => {
    expect(() => new FlowBuffer(c)).toThrow(RangeError);
  });
});

describe('matches', () => {
  const base = msg(1);
  it.each<[string, Partial<FlowMessage>, FlowFilter, boolean]>([
    ['no filter', {}, {}, true],
    ['node matches', {}, { node: 'node-1' }, true],
    ['other node', {}, { node: 'node-2' }, false],
    ['component as sender', {}, { component: 'kubelet' }, true],
    ['component as receiver', {}, { component: 'containerd' }, true],
    ['component not involved', {}, { component: 'scheduler' }, false],
    ['object substring', {}, { object: 'default/web' }, true],
    ['other object', {}, { object: 'kube-system/' }, false],
    ['kind allowed', {}, { kinds: new Set(['cri']) }, true],
    ['kind not allowed', {}, { kinds: new Set(['event']) }, false],
    ['relist call hidden', { method: 'ListContainers' }, {}, false],
    ['relist call shown on request', { method: 'ListContainers' }, { relist: true }, true],
    ['failed relist call always shown', { method: 'ContainerStatus', code: 'NotFound' }, {}, true],
  ])('%s', (_name, over, f, want) => {
    expect(matches({ ...base, ...over }, f)).toBe(want);
  });
});

describe('podStory', () => {
  it('orders one pod’s messages by start time into lanes along a pod start’s path', () => {
    const ms = [
      msg(990, { kind: 'event', from: 'controller-manager', to: 'apiserver', node: undefined, objectKind: 'ReplicaSet', name: 'web', method: 'SuccessfulCreate', detail: 'Created pod: web-1' }),
      msg(991, { kind: 'event', from: 'controller-manager', to: 'apiserver', node: undefined, objectKind: 'ReplicaSet', name: 'web', method: 'SuccessfulCreate', detail: 'Created pod: web-2' }),
      msg(1030, { method: 'StartContainer', durationMs: 0.6 }),
      msg(1000, { kind: 'event', from: 'scheduler', to: 'apiserver', node: undefined, method: 'Scheduled' }),
      msg(1010, { method: 'RunPodSandbox', durationMs: 12 }),
      msg(1020, { method: 'CreateContainer', durationMs: 2 }),
      msg(1015, { method: 'RunPodSandbox', name: 'other' }),
      msg(1016, { method: 'ListContainers' }),
    ];
    const s = podStory(ms, 'default/web-1');
    expect(s.lanes).toEqual(['controller-manager', 'apiserver', 'scheduler', 'kubelet(node-1)', 'containerd(node-1)']);
    expect(s.steps.map((x) => `${x.atMs} ${x.method}`)).toEqual(['0 SuccessfulCreate', '10 Scheduled', '20 RunPodSandbox', '30 CreateContainer', '40 StartContainer']);
    expect(s.steps[2]!.durationMs).toBe(12);
  });

  it('lists pods newest first, one entry per pod', () => {
    expect(storyPods([msg(1, { name: 'a' }), msg(3, { name: 'b' }), msg(2, { name: 'a' }), msg(4, { objectKind: 'Node', name: 'node-1', namespace: undefined })])).toEqual(['default/b', 'default/a']);
  });
});

describe('records', () => {
  it('reads a CRI record as kubelet → containerd about its pod', () => {
    const m = criMessage(
      JSON.stringify({ time: '2026-01-02T03:04:05.000Z', node: 'node-1', method: 'RunPodSandbox', request: { pod: 'default/web-1' }, durationMs: 12, code: 'OK', traceId: 't1', spanId: 's1' }),
    );
    expect(m).toMatchObject({
      time: Date.parse('2026-01-02T03:04:05.000Z'),
      from: 'kubelet(node-1)',
      to: 'containerd(node-1)',
      namespace: 'default',
      name: 'web-1',
      method: 'RunPodSandbox',
      durationMs: 12,
    });
  });

  it.each([
    ['a create', 'kubelab.api.create.pods', { verb: 'create', resource: 'pods', user: 'system:serviceaccount:kube-system:replicaset-controller' }, 'controller-manager', 'create pods'],
    ["the scheduler's bind", 'kubelab.api.create.pods/binding', { verb: 'create', resource: 'pods', subresource: 'binding', user: 'system:kube-scheduler' }, 'scheduler', 'create pods/binding'],
    ["a kubelet's status report", 'kubelab.api.patch.pods/status', { verb: 'patch', resource: 'pods', subresource: 'status', user: 'system:node:node-1' }, 'kubelet(node-1)', 'patch pods/status'],
  ])('reads a write record as who asked → apiserver, with its subresource: %s', (_n, subject, rec, from, method) => {
    const m = apiMessage(subject, JSON.stringify({ time: '2026-01-02T03:04:05.000Z', group: '', version: 'v1', namespace: 'default', name: 'web-1', code: 201, durationMs: 2, ...rec }));
    expect(m).toMatchObject({ from, to: 'apiserver', method, name: 'web-1', namespace: 'default', objectKind: 'Pod' });
  });

  it.each(['', 'not json', '{"method":"RunPodSandbox"}', '[]'])('ignores a body that is no record: %j', (body) => {
    expect(criMessage(body)).toBeUndefined();
  });

  it('reads an Event as its reporter’s message', () => {
    const m = eventMessage({
      metadata: { name: 'web-1.1', namespace: 'default' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1' },
      reason: 'Scheduled',
      message: 'Successfully assigned default/web-1 to node-1',
      source: { component: 'default-scheduler' },
      type: 'Normal',
      lastTimestamp: '2026-01-02T03:04:05Z',
    });
    expect(m).toMatchObject({ from: 'scheduler', to: 'apiserver', method: 'Scheduled', name: 'web-1', kind: 'event' });
  });
});
