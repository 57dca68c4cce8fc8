// events.k8s.io/v1 over core/v1 events' storage: one object, two shapes.
// Written through either group version, it reads and watches through both.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';

type Body = Record<string, any>;

const EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';
const CORE = '/api/v1/namespaces/default/events';
const JSON_BODY = { 'content-type': 'application/json' };

const newEvent = (name: string): Body => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name },
  eventTime: '2026-01-02T03:04:05.000000Z',
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  action: 'Sync',
  reason: 'Synced',
  regarding: { kind: 'Pod', namespace: 'default', name: 'web', apiVersion: 'v1' },
  note: 'synced the pod',
  type: 'Normal',
});

const watchLines = (body: string): Body[] =>
  body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Body);

describe.runIf(requireTool('nats-server'))('events.k8s.io/v1', () => {
  let c: TestCluster;
  beforeAll(async () => {
    c = await startTestCluster({ rest: true });
  }, 60_000);
  afterAll(() => c?.cleanup());

  const post = (path: string, obj: Body) => c.rest(path, { method: 'POST', headers: JSON_BODY, body: JSON.stringify(obj) });
  const getJson = async (path: string) => {
    const r = await c.rest(path);
    expect(r.status, r.body).toBe(200);
    return JSON.parse(r.body) as Body;
  };

  it('stores an event created through events.k8s.io/v1 once, read as core/v1 and back', async () => {
    const created = await post(EVENTS, newEvent('e1'));
    expect(created.status, created.body).toBe(201);
    const made = JSON.parse(created.body) as Body;
    expect(made).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'synced the pod', reportingController: 'example.com/ctl', regarding: { name: 'web' } });

    const core = await getJson(`${CORE}/e1`);
    expect(core).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      message: 'synced the pod',
      reportingComponent: 'example.com/ctl',
      reportingInstance: 'ctl-1',
      involvedObject: { kind: 'Pod', name: 'web' },
      eventTime: '2026-01-02T03:04:05.000000Z',
    });
    expect(core.metadata.uid).toBe(made.metadata.uid);
    expect(core.note).toBeUndefined();

    const back = await getJson(`${EVENTS}/e1`);
    expect(back).toEqual(made);
  });

  it('serves a core/v1 event as events.k8s.io/v1 with the deprecated fields', async () => {
    const r = await post(CORE, {
      metadata: { name: 'legacy' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' },
      reason: 'Pulled',
      message: 'pulled',
      source: { component: 'kubelet', host: 'n1' },
      count: 3,
      type: 'Normal',
    });
    expect(r.status, r.body).toBe(201);
    const ev = await getJson(`${EVENTS}/legacy`);
    expect(ev).toMatchObject({ note: 'pulled', deprecatedSource: { component: 'kubelet', host: 'n1' }, deprecatedCount: 3, eventTime: null, regarding: { name: 'web' } });
    expect(ev.message).toBeUndefined();
  });

  it('refuses a create events.k8s.io/v1 validates, naming the group', async () => {
    const { reportingController: _drop, ...rest } = newEvent('bad');
    const r = await post(EVENTS, { ...rest, deprecatedCount: 2 });
    expect(r.status).toBe(422);
    const s = JSON.parse(r.body) as Body;
    expect(s.message).toContain('Event.events.k8s.io "bad" is invalid');
    expect(s.details.causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueRequired', message: 'Required value', field: 'reportingController' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "": needs to be unset', field: 'deprecatedCount' },
      ]),
    );
  });

  it('lists with events.k8s.io field labels and refuses core ones', async () => {
    const list = await getJson(`${EVENTS}?fieldSelector=regarding.name%3Dweb,reportingController%3Dexample.com%2Fctl`);
    expect(list).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'EventList' });
    expect(list.items.map((e: Body) => e.metadata.name)).toEqual(['e1']);
    const bad = await c.rest(`${EVENTS}?fieldSelector=involvedObject.name%3Dweb`);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).message).toBe('field label not supported: involvedObject.name');
  });

  it('answers NotFound in its own group', async () => {
    const r = await c.rest(`${EVENTS}/missing`);
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ message: 'events.events.k8s.io "missing" not found', details: { name: 'missing', group: 'events.k8s.io', kind: 'events' } });
  });

  it('patches the events.k8s.io shape and watches through both group versions', async () => {
    const rv = (await getJson(EVENTS)).metadata.resourceVersion as string;
    const watchEvents = c.rest(`${EVENTS}?watch=true&resourceVersion=${rv}&timeoutSeconds=2`);
    const watchCore = c.rest(`${CORE}?watch=true&resourceVersion=${rv}&timeoutSeconds=2`);
    await new Promise((r) => setTimeout(r, 200));
    const patched = await c.rest(`${EVENTS}/e1`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ note: 'synced again' }) });
    expect(patched.status, patched.body).toBe(200);
    expect(JSON.parse(patched.body)).toMatchObject({ note: 'synced again', apiVersion: 'events.k8s.io/v1' });

    const [ev] = watchLines((await watchEvents).body);
    expect(ev).toMatchObject({ type: 'MODIFIED', object: { apiVersion: 'events.k8s.io/v1', kind: 'Event', note: 'synced again', metadata: { name: 'e1' } } });
    const [core] = watchLines((await watchCore).body);
    expect(core).toMatchObject({ type: 'MODIFIED', object: { apiVersion: 'v1', kind: 'Event', message: 'synced again', metadata: { name: 'e1' } } });
  });

  it('prints a Table as core events print', async () => {
    const r = await c.rest(EVENTS, { headers: { accept: 'application/json;as=Table;g=meta.k8s.io;v=v1' } });
    expect(r.status).toBe(200);
    const t = JSON.parse(r.body) as Body;
    expect(t.columnDefinitions.map((d: Body) => d.name)).toEqual(['Last Seen', 'Type', 'Reason', 'Object', 'Subobject', 'Source', 'Message', 'First Seen', 'Count', 'Name']);
    const row = t.rows.find((x: Body) => x.cells[9] === 'e1') as Body;
    expect(row.cells.slice(1, 7)).toEqual(['Normal', 'Synced', 'pod/web', '', 'example.com/ctl, ctl-1', 'synced again']);
  });

  it('deletes through events.k8s.io/v1, answering a Status in its group', async () => {
    const r = await c.rest(`${EVENTS}/legacy`, { method: 'DELETE' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'legacy', group: 'events.k8s.io', kind: 'events' } });
    expect((await c.rest(`${CORE}/legacy`)).status).toBe(404);
  });
});
