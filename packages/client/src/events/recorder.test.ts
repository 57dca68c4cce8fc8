import { serviceUnavailable, type Event, type Node, type Pod } from '@kubelab/api';
import { afterEach, describe, expect, it } from 'vitest';
import { GVR } from '../clientset/clientset.js';
import { FakeClientset } from '../testing/fake-clientset.js';
import { FakeClock, flushPromises } from '../util/fake-clock.js';
import { silentLogger } from '../util/logger.js';
import { FakeRecorder } from '../testing/fake-recorder.js';
import { clientsetEventSink, EventBroadcaster, sprintf, type EventSink } from './recorder.js';

const pod: Pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'default', name: 'web-1', uid: 'uid-web-1', resourceVersion: '42' },
  spec: { containers: [{ name: 'nginx', image: 'nginx' }] },
};

const broadcasters: EventBroadcaster[] = [];
afterEach(async () => {
  await Promise.all(broadcasters.splice(0).map((b) => b.shutdown()));
});

function setup(opts: { maxQueuedEvents?: number } = {}) {
  const clock = new FakeClock('2026-01-01T10:00:00Z');
  const fake = new FakeClientset(() => clock.now());
  const b = new EventBroadcaster({ sink: clientsetEventSink(fake.clientset), clock, logger: silentLogger, random: () => 0, ...opts });
  broadcasters.push(b);
  b.startRecordingToSink();
  const recorder = b.newRecorder({ component: 'default-scheduler' });
  const events = async () => fake.objects<Event>(GVR.events);
  return { clock, fake, b, recorder, events };
}

describe('EventRecorder', () => {
  it('writes a core/v1 Event about the object with source and reporting fields', async () => {
    const { b, recorder, events, fake } = setup();
    recorder.event(pod, 'Normal', 'Scheduled', 'Successfully assigned default/web-1 to node-1');
    await b.flush();
    const [ev] = await events();
    expect(ev?.metadata.name).toMatch(/^web-1\.[0-9a-f]+$/);
    expect(BigInt(`0x${ev!.metadata.name!.split('.')[1]}`) / 1_000_000n).toBe(BigInt(Date.parse('2026-01-01T10:00:00Z')));
    const { metadata, ...rest } = ev as Event;
    expect(metadata.namespace).toBe('default');
    expect(rest).toEqual({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'uid-web-1', apiVersion: 'v1', resourceVersion: '42' },
      reason: 'Scheduled',
      message: 'Successfully assigned default/web-1 to node-1',
      source: { component: 'default-scheduler' },
      firstTimestamp: '2026-01-01T10:00:00Z',
      lastTimestamp: '2026-01-01T10:00:00Z',
      count: 1,
      type: 'Normal',
      eventTime: null,
      reportingComponent: 'default-scheduler',
      reportingInstance: '',
    });
    expect(fake.actionLines()).toEqual([`create events default`]);
  });

  it('aggregates a repeat into the first event: count and lastTimestamp patched', async () => {
    const { b, clock, recorder, events, fake } = setup();
    recorder.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container');
    await b.flush();
    await clock.advance(30_000);
    recorder.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container');
    await b.flush();
    await clock.advance(30_000);
    recorder.event(pod, 'Warning', 'BackOff', 'Back-off restarting failed container');
    await b.flush();
    const all = await events();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ count: 3, firstTimestamp: '2026-01-01T10:00:00Z', lastTimestamp: '2026-01-01T10:01:00Z' });
    expect(fake.actionLines()).toEqual(['create events default', `patch events default/${all[0]!.metadata.name}`, `patch events default/${all[0]!.metadata.name}`]);
    expect(fake.actions[2]?.patch).toEqual({ count: 3, lastTimestamp: '2026-01-01T10:01:00Z', message: 'Back-off restarting failed container' });
    expect(fake.actions[2]?.patchType).toBe('application/strategic-merge-patch+json');
  });

  it('recreates the event when the one it would patch is gone', async () => {
    const { b, recorder, events, fake } = setup();
    recorder.event(pod, 'Normal', 'Pulled', 'pulled');
    await b.flush();
    const [first] = await events();
    await fake.clientset.core.events('default').delete(first!.metadata.name!);
    recorder.event(pod, 'Normal', 'Pulled', 'pulled');
    await b.flush();
    const all = await events();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ count: 2, metadata: { name: first!.metadata.name } });
  });

  it('combines 10 similar events (same reason, different messages) into one', async () => {
    const { b, recorder, events } = setup();
    for (let i = 0; i < 12; i++) recorder.eventf(pod, 'Warning', 'FailedScheduling', '0/%d nodes are available', i);
    await b.flush();
    const all = await events();
    const combined = all.filter((e) => e.message?.startsWith('(combined from similar events): '));
    expect(all).toHaveLength(10);
    expect(combined).toHaveLength(1);
    expect(combined[0]).toMatchObject({ count: 3, message: '(combined from similar events): 0/11 nodes are available' });
  });

  it('records cluster-scoped objects in the default namespace, with the host of node components', async () => {
    const { b, fake, events } = setup();
    const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid: 'n1' } };
    b.newRecorder({ component: 'kubelet', host: 'node-1' }).event(node, 'Normal', 'NodeReady', 'Node node-1 status is now: NodeReady');
    await b.flush();
    const [ev] = await events();
    expect(ev).toMatchObject({
      metadata: { namespace: 'default' },
      involvedObject: { kind: 'Node', name: 'node-1', namespace: '' },
      source: { component: 'kubelet', host: 'node-1' },
      reportingInstance: 'node-1',
    });
    expect(fake.actionLines()).toEqual(['create events default']);
  });

  it('takes a reference with a fieldPath for container events', async () => {
    const { b, recorder, events } = setup();
    recorder.event({ kind: 'Pod', namespace: 'default', name: 'web-1', uid: 'u', apiVersion: 'v1', fieldPath: 'spec.containers{nginx}' }, 'Normal', 'Started', 'Started container nginx');
    await b.flush();
    expect((await events())[0]?.involvedObject.fieldPath).toBe('spec.containers{nginx}');
  });

  it('retries while the apiserver is unavailable and never throws into the caller', async () => {
    const { b, clock, recorder, fake, events } = setup();
    let down = 2;
    fake.prependReactor('create', 'events', () => {
      if (down-- > 0) throw serviceUnavailable('connection refused');
      return undefined;
    });
    expect(() => recorder.event(pod, 'Normal', 'Killing', 'Stopping container nginx')).not.toThrow();
    await flushPromises();
    await clock.advance(10_000);
    await b.flush();
    expect((await events()).map((e) => e.reason)).toEqual(['Killing']);
    expect(fake.actionLines()).toEqual(['create events default', 'create events default', 'create events default']);
  });

  it('drops what it cannot take: unsupported types, objects without a name, a full queue', async () => {
    const { b, recorder, events, fake } = setup({ maxQueuedEvents: 2 });
    recorder.event(pod, 'Error' as 'Normal', 'X', 'y');
    recorder.event(null as unknown as Pod, 'Normal', 'X', 'y');
    recorder.event({ apiVersion: 'v1', kind: 'Pod', metadata: {} }, 'Normal', 'X', 'y');
    fake.prependReactor('create', 'events', () => new Promise(() => {})); // sink stuck
    for (let i = 0; i < 5; i++) recorder.event(pod, 'Normal', `R${i}`, 'm');
    await flushPromises();
    expect(b.dropped).toBe(3); // the queue holds two; the writer had not taken one yet
    expect(await events()).toEqual([]);
  });

  it('writes several events at once; a repeat waits for the write it patches', async () => {
    const clock = new FakeClock('2026-01-01T10:00:00Z');
    const calls: string[] = [];
    const pending: Array<() => void> = [];
    const sink: EventSink = {
      create: (e) => {
        calls.push(`create ${e.reason} count=${e.count}`);
        return new Promise((resolve) => pending.push(() => resolve({ ...e, metadata: { ...e.metadata, resourceVersion: '1' } })));
      },
      patch: (e, p) => {
        calls.push(`patch ${e.reason} count=${String(p.count)}`);
        return Promise.resolve({ ...e, count: p.count as number });
      },
    };
    const b = new EventBroadcaster({ sink, clock, logger: silentLogger, random: () => 0, sinkWorkers: 3 });
    broadcasters.push(b);
    b.startRecordingToSink();
    const recorder = b.newRecorder({ component: 'default-scheduler' });
    for (const r of ['A', 'B', 'A', 'C', 'D']) recorder.event(pod, 'Normal', r, 'm');
    await flushPromises();
    // Three writers: A and B are written together; the third holds the repeat of A until A is written.
    expect(calls).toEqual(['create A count=1', 'create B count=1']);
    pending.shift()!(); // A written
    await flushPromises();
    expect(calls.slice(2).sort()).toEqual(['create C count=1', 'create D count=1', 'patch A count=2']);
    for (const done of pending.splice(0)) done();
    await b.flush();
    expect(b.dropped).toBe(0);
  });

  it('lets a source burst 25 events about one object, then one per 5 minutes', async () => {
    const { b, clock, recorder, events } = setup();
    for (let i = 0; i < 30; i++) recorder.event(pod, 'Normal', `Reason${i}`, 'm');
    await b.flush();
    expect(await events()).toHaveLength(25);
    await clock.advance(300_000);
    recorder.event(pod, 'Normal', 'Later', 'm');
    recorder.event(pod, 'Normal', 'TooSoon', 'm');
    await b.flush();
    expect((await events()).map((e) => e.reason)).toContain('Later');
    expect((await events()).map((e) => e.reason)).not.toContain('TooSoon');
  });
});

describe('sprintf', () => {
  it('formats the verbs upstream event messages use', () => {
    expect(sprintf('Created pod: %s', ['web-1'])).toBe('Created pod: web-1');
    expect(sprintf('0/%d nodes are available: %v.', [3, 'x'])).toBe('0/3 nodes are available: x.');
    expect(sprintf('Error: %q %s', ['a b', new Error('boom')])).toBe('Error: "a b" boom');
    expect(sprintf('%s %s', ['one'])).toBe('one %!s(MISSING)');
  });
});

describe('FakeRecorder', () => {
  it('keeps "<type> <reason> <message>" lines formatted as the real recorder formats them', () => {
    const r = new FakeRecorder();
    r.eventf(pod, 'Normal', 'SuccessfulCreate', 'Created pod: %v', 'web-1');
    r.annotatedEventf(pod, { a: 'b' }, 'Warning', 'FailedCreate', 'Error creating: %v', new Error('quota'));
    r.event(pod, 'Normal', 'Scaled', 'Scaled up replica set web to %d');
    expect(r.events).toEqual(['Normal SuccessfulCreate Created pod: web-1', 'Warning FailedCreate Error creating: quota', 'Normal Scaled Scaled up replica set web to %d']);
  });
});
