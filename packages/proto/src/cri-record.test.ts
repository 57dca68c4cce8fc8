import { describe, expect, it } from 'vitest';
import { CRI_SUBJECT_ALL, criSubject, criSubscription, decodeCriCallRecord, encodeCriCallRecord, type CriCallRecord } from './cri-record.js';

describe('CRI record subjects', () => {
  it.each([
    ['a node and method', 'node-1', 'RunPodSandbox', 'kubelab.cri.node-1.RunPodSandbox'],
    ['dots in a node name become underscores', 'node.a', 'Version', 'kubelab.cri.node_a.Version'],
    ['wildcards and blanks in a node name become underscores', 'n*> \tx', 'Version', 'kubelab.cri.n____x.Version'],
  ])('publish: %s', (_name, node, method, want) => expect(criSubject(node, method)).toBe(want));

  it.each([
    ['neither: every record', undefined, undefined, 'kubelab.cri.>'],
    ['a node: any method', 'node-1', undefined, 'kubelab.cri.node-1.*'],
    ['a method: any node', undefined, 'ExecSync', 'kubelab.cri.*.ExecSync'],
    ['both, the node as a token', 'node.a', 'ExecSync', 'kubelab.cri.node_a.ExecSync'],
    ['empty strings count as missing', '', '', 'kubelab.cri.>'],
  ])('subscribe: %s', (_name, node, method, want) => expect(criSubscription(node, method)).toBe(want));

  it('the stream subject covers every published subject', () => expect(CRI_SUBJECT_ALL).toBe('kubelab.cri.>'));
});

describe('CRI record encoding', () => {
  const full: CriCallRecord = {
    time: 't',
    node: 'node-1',
    service: 'RuntimeService',
    method: 'StartContainer',
    containerId: 'c',
    containerName: 'app',
    podName: 'web',
    podNamespace: 'default',
    request: {},
    durationMs: 0.5,
    code: 'OK',
    codeNumber: 0,
    traceId: 'a',
    spanId: 'b',
  };
  it('a runtime record reads back whole', () => expect(decodeCriCallRecord(encodeCriCallRecord(full))).toEqual(full));

  it.each<[string, string, Partial<CriCallRecord> | undefined]>([
    ['not JSON is no record', 'not json', undefined],
    ['an array is no record', '[1,2]', undefined],
    ['a record needs a method', '{"node":"n"}', undefined],
    ['wrong-typed fields get their defaults', '{"node":"n","method":"X","request":"oops","durationMs":"slow"}', { node: 'n', method: 'X', request: {}, durationMs: 0, code: 'UNKNOWN' }],
  ])('%s', (_name, data, want) => expect(decodeCriCallRecord(data)).toEqual(want && expect.objectContaining(want)));
});
