import { describe, expect, it } from 'vitest';
import { lookupResource, StatusError, type KubeObject } from '@kubelab/api';
import { namespaceLifecycle, type NamespaceGetter } from './namespace-lifecycle.js';
import type { AdmissionAttributes, Operation } from './types.js';

const configmaps = lookupResource('', 'v1', 'configmaps')!;
const namespaces = lookupResource('', 'v1', 'namespaces')!;

function attrs(operation: Operation, info = configmaps, namespace = 'web', name = 'settings'): AdmissionAttributes {
  return { operation, info, namespace, name, ctx: {}, dryRun: false, onRollback: () => undefined, onCommit: () => undefined };
}

const ns = (name: string, terminating = false): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...(terminating ? { status: { phase: 'Terminating' } } : {}) });

/** What admit ends with: 'ok', or the Status code and message it throws or rejects with; and whether it answered without a promise. */
async function outcome(get: NamespaceGetter, a: AdmissionAttributes): Promise<{ sync: boolean; result: string }> {
  let r: void | Promise<void>;
  try {
    r = namespaceLifecycle(get).admit!(a);
  } catch (e) {
    return { sync: true, result: `${(e as StatusError).status.code} ${(e as StatusError).message}` };
  }
  if (!(r instanceof Promise)) return { sync: true, result: 'ok' };
  try {
    await r;
    return { sync: false, result: 'ok' };
  } catch (e) {
    return { sync: false, result: `${(e as StatusError).status.code} ${(e as StatusError).message}` };
  }
}

describe('NamespaceLifecycle', () => {
  it.each<[string, NamespaceGetter, AdmissionAttributes, { sync: boolean; result: string }]>([
    ['a create in an existing namespace, answered by the cache at once', () => ns('web'), attrs('CREATE'), { sync: true, result: 'ok' }],
    ['a create in a missing namespace', () => undefined, attrs('CREATE'), { sync: true, result: '404 namespaces "web" not found' }],
    [
      'a create in a terminating namespace',
      () => ns('web', true),
      attrs('CREATE'),
      { sync: true, result: '403 configmaps "settings" is forbidden: unable to create new content in namespace web because it is being terminated' },
    ],
    ['a namespace the cache must wait for', () => Promise.resolve(ns('web')), attrs('CREATE'), { sync: false, result: 'ok' }],
    ['... and that turns out missing', () => Promise.resolve(undefined), attrs('CREATE'), { sync: false, result: '404 namespaces "web" not found' }],
    ['updates are not checked', () => undefined, attrs('UPDATE'), { sync: true, result: 'ok' }],
    [
      'kube-system may not be deleted',
      () => undefined,
      attrs('DELETE', namespaces, '', 'kube-system'),
      { sync: true, result: '403 namespaces "kube-system" is forbidden: this namespace may not be deleted' },
    ],
    ['another namespace may', () => undefined, attrs('DELETE', namespaces, '', 'web'), { sync: true, result: 'ok' }],
  ])('%s', async (_n, get, a, want) => {
    expect(await outcome(get, a)).toEqual(want);
  });
});
