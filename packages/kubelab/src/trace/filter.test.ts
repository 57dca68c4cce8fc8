import { describe, expect, it } from 'vitest';
import { classify, classifyProxy, parseMethods, parsePodRef, subjectFor, type TraceFilter } from './filter.js';
import { podOf, type CriRecord } from './record.js';

const rec = (method: string, extra: Partial<CriRecord> = {}): CriRecord => ({ time: 't', node: 'node-1', method, request: {}, durationMs: 1, code: 'OK', ...extra });
const web = { podName: 'web', podNamespace: 'default' };
const none: TraceFilter = { nodes: [], methods: [], all: false };

describe('classify', () => {
  const cases: [string, CriRecord, Partial<TraceFilter>, string][] = [
    ['a lifecycle call shows', rec('StartContainer', web), {}, 'show'],
    ['the PLEG relist is hidden', rec('ListContainers'), {}, 'hidden-relist'],
    ['status polls are hidden', rec('PodSandboxStatus', web), {}, 'hidden-relist'],
    ['runtime Status is hidden', rec('Status'), {}, 'hidden-relist'],
    ['--all shows relists', rec('ListPodSandbox'), { all: true }, 'show'],
    ['naming a relist method with --method shows it', rec('ContainerStatus', web), { methods: ['ContainerStatus'] }, 'show'],
    ['a failed relist is never hidden', rec('ListContainers', { code: 'UNAVAILABLE' }), {}, 'show'],
    ['ImageStatus (before a pull) shows', rec('ImageStatus', { request: { image: 'nginx' } }), {}, 'show'],
    ['--node other', rec('StartContainer', web), { nodes: ['node-2'] }, 'filtered'],
    ['--node one of several', rec('StartContainer', web), { nodes: ['node-2', 'node-1'] }, 'show'],
    ['--method other', rec('StartContainer', web), { methods: ['ExecSync'] }, 'filtered'],
    ['--pod by name, any namespace', rec('StartContainer', { podName: 'web', podNamespace: 'prod' }), { pod: { name: 'web' } }, 'show'],
    ['--pod ns/name matches', rec('StartContainer', web), { pod: { namespace: 'default', name: 'web' } }, 'show'],
    ['--pod ns/name, other namespace', rec('StartContainer', { podName: 'web', podNamespace: 'prod' }), { pod: { namespace: 'default', name: 'web' } }, 'filtered'],
    ['--pod: a call without a pod is filtered', rec('PullImage', { request: { image: 'nginx' } }), { pod: { name: 'web' } }, 'filtered'],
    ['--pod: RunPodSandbox names its pod in the request', rec('RunPodSandbox', { request: { pod: 'default/web' } }), { pod: { namespace: 'default', name: 'web' } }, 'show'],
    ['--pod: a relist for that pod is still hidden', rec('PodSandboxStatus', web), { pod: { name: 'web' } }, 'hidden-relist'],
  ];
  for (const [name, r, f, want] of cases) it(name, () => expect(classify(r, { ...none, ...f })).toBe(want));
});

describe('classifyProxy', () => {
  it.each<[string, Partial<TraceFilter>, string]>([
    ['every sync shows', {}, 'show'],
    ['--node: its syncs', { nodes: ['node-1'] }, 'show'],
    ["--node: another node's", { nodes: ['node-2'] }, 'filtered'],
    ['--pod: a sync is no pod step', { pod: { name: 'web' } }, 'filtered'],
    ['--method names CRI methods', { methods: ['ExecSync'] }, 'filtered'],
  ])('%s', (_n, f, want) => expect(classifyProxy({ node: 'node-1' }, { ...none, ...f })).toBe(want));
});

describe('subjectFor', () => {
  it.each([
    [{ nodes: [], methods: [] }, 'kubelab.cri.>'],
    [{ nodes: ['node-1'], methods: [] }, 'kubelab.cri.node-1.*'],
    [{ nodes: [], methods: ['ExecSync'] }, 'kubelab.cri.*.ExecSync'],
    [{ nodes: ['node.a'], methods: ['ExecSync'] }, 'kubelab.cri.node_a.ExecSync'],
    [{ nodes: ['node-1', 'node-2'], methods: ['ExecSync', 'StopContainer'] }, 'kubelab.cri.>'],
  ])('%j → %s', (f, want) => expect(subjectFor(f)).toBe(want));
});

describe('flag values', () => {
  it('--pod', () => {
    expect(parsePodRef('web')).toEqual({ name: 'web' });
    expect(parsePodRef('kube-system/coredns')).toEqual({ namespace: 'kube-system', name: 'coredns' });
    expect(parsePodRef('')).toBeUndefined();
    expect(() => parsePodRef('a/b/c')).toThrow('invalid argument "a/b/c" for "--pod" flag: want NAME or NAMESPACE/NAME');
    expect(() => parsePodRef('/web')).toThrow('want NAME or NAMESPACE/NAME');
  });
  it('--method: canonical names, case-insensitive, deduplicated', () => {
    expect(parseMethods(['execsync', 'StopContainer', 'ExecSync', ' '])).toEqual(['ExecSync', 'StopContainer']);
    expect(() => parseMethods(['Exec', 'Probe'])).toThrow(/^invalid argument "Probe" for "--method" flag: not a CRI method \(one of Version, RunPodSandbox, /);
  });
});

describe('podOf', () => {
  it('podOf: sandbox metadata first, then the request', () => {
    expect(podOf(rec('X', web))).toEqual({ name: 'web', namespace: 'default' });
    expect(podOf(rec('RunPodSandbox', { request: { pod: 'kube-system/dns' } }))).toEqual({ namespace: 'kube-system', name: 'dns' });
    expect(podOf(rec('RunPodSandbox', { request: { pod: 'undefined/undefined' } }))).toEqual({});
    expect(podOf(rec('PullImage'))).toEqual({});
  });
});
