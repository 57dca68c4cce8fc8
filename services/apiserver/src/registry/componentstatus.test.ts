import { describe, expect, it } from 'vitest';
import { componentStatusPrinter } from '../printers/misc.js';
import { componentStatus, componentStatusStore, storeComponent, type ComponentCheck } from './componentstatus.js';

describe('componentStatus', () => {
  it.each<{ check: ComponentCheck; condition: object; row: string[] }>([
    { check: { result: 'Success', message: 'ok', error: '' }, condition: { type: 'Healthy', status: 'True', message: 'ok' }, row: ['scheduler', 'Healthy', 'ok', ''] },
    {
      check: { result: 'Failure', message: 'HTTP probe failed with statuscode: 500', error: '' },
      condition: { type: 'Healthy', status: 'False', message: 'HTTP probe failed with statuscode: 500' },
      row: ['scheduler', 'Unhealthy', 'HTTP probe failed with statuscode: 500', ''],
    },
    { check: { result: 'Unknown', message: '', error: 'boom' }, condition: { type: 'Healthy', status: 'Unknown', error: 'boom' }, row: ['scheduler', 'Unhealthy', '', 'boom'] },
  ])('$check.result → $condition.status, printed $row.1', ({ check, condition, row }) => {
    const cs = componentStatus('scheduler', check);
    expect(cs).toEqual({ kind: 'ComponentStatus', apiVersion: 'v1', metadata: { name: 'scheduler' }, conditions: [condition] });
    expect(componentStatusPrinter.cells(cs, new Date())).toEqual(row);
  });

  it('prints Unknown for an object without a Healthy condition', () => {
    expect(componentStatusPrinter.cells({ metadata: { name: 'x' } }, new Date())).toEqual(['x', 'Unknown', '', '']);
  });
});

describe('componentStatusStore', () => {
  const store = componentStatusStore([storeComponent('etcd-0', () => Promise.resolve(7)), storeComponent('etcd-1', () => Promise.reject(new Error('nats: timeout')))]);

  it('the store: a read through is "ok"; a failed one unhealthy with its error', async () => {
    const list = await store.list({});
    expect(list.items.map((cs) => [cs.metadata.name, (cs as { conditions?: unknown[] }).conditions])).toEqual([
      ['etcd-0', [{ type: 'Healthy', status: 'True', message: 'ok' }]],
      ['etcd-1', [{ type: 'Healthy', status: 'False', error: 'nats: timeout' }]],
    ]);
  });

  it('a field selector on metadata.name picks one; a label selector matches none (no labels)', async () => {
    expect((await store.list({ fieldSelector: 'metadata.name=etcd-1' })).items.map((cs) => cs.metadata.name)).toEqual(['etcd-1']);
    expect((await store.list({ labelSelector: 'app=x' })).items).toEqual([]);
  });

  it('get of an unknown name: a 500 with no reason, as upstream answers a plain error', async () => {
    await expect(store.get(undefined, 'nope')).rejects.toMatchObject({ status: { code: 500, message: 'Component not found: nope' } });
  });
});
