import { describe, expect, it } from 'vitest';
import { conflict, lookupResource, StatusError, type KubeObject, type Pod, type ResourceQuota } from '@kubelab/api';
import { AdmissionHooks, type AdmissionAttributes } from './types.js';
import { checkQuotas, resourceQuota, type QuotaSource } from './resource-quota.js';

const NOW = new Date('2025-06-01T12:00:00Z');
const pod = (name: string, resources?: { requests?: Record<string, string>; limits?: Record<string, string> }, phase?: 'Succeeded'): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name, image: 'nginx', ...(resources ? { resources } : {}) }] },
  ...(phase ? { status: { phase } } : {}),
});
const quota = (name: string, hard: Record<string, string>, used?: Record<string, string>, scopes?: string[]): ResourceQuota => ({
  metadata: { name, namespace: 'default', resourceVersion: '7' },
  spec: { hard, ...(scopes ? { scopes } : {}) },
  status: { hard, ...(used ? { used } : {}) },
});

describe('ResourceQuota admission (checkRequest)', () => {
  it.each<[string, ResourceQuota[], string, KubeObject, string]>([
    ['pods at the limit', [quota('q', { pods: '2' }, { pods: '2' })], 'pods', pod('x'), 'exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2'],
    [
      'only the exceeded resources are listed',
      [quota('q', { pods: '5', 'requests.cpu': '1' }, { pods: '1', 'requests.cpu': '900m' })],
      'pods',
      pod('x', { requests: { cpu: '200m' } }),
      'exceeded quota: q, requested: requests.cpu=200m, used: requests.cpu=900m, limited: requests.cpu=1',
    ],
    [
      'several exceeded, sorted and comma-joined',
      [quota('q', { cpu: '1', pods: '1' }, { cpu: '1', pods: '1' })],
      'pods',
      pod('x', { requests: { cpu: '1' } }),
      'exceeded quota: q, requested: cpu=1,pods=1, used: cpu=1,pods=1, limited: cpu=1,pods=1',
    ],
    [
      'a quota on limits.cpu needs the container to set it',
      [quota('q', { 'limits.cpu': '2' }, { 'limits.cpu': '0' })],
      'pods',
      pod('x', { requests: { cpu: '1' } }),
      'failed quota: q: must specify limits.cpu for: x',
    ],
    ['a quota not counted yet', [quota('q', { pods: '2' })], 'pods', pod('x'), 'status unknown for quota: q, resources: pods'],
    [
      'configmaps by their count',
      [quota('q', { configmaps: '1' }, { configmaps: '1' })],
      'configmaps',
      { metadata: { name: 'cm' } },
      'exceeded quota: q, requested: configmaps=1, used: configmaps=1, limited: configmaps=1',
    ],
    [
      'the second quota refuses',
      [quota('a', { pods: '10' }, { pods: '0' }), quota('b', { 'count/pods': '1' }, { 'count/pods': '1' })],
      'pods',
      pod('x'),
      'exceeded quota: b, requested: count/pods=1, used: count/pods=1, limited: count/pods=1',
    ],
  ])('refuses %s', (_n, quotas, resource, obj, want) => {
    expect(checkQuotas(quotas, '', resource, obj, NOW)).toEqual({ refused: want });
  });

  it.each<[string, ResourceQuota[], KubeObject, Record<string, Record<string, string>>]>([
    [
      'adds the usage to each quota tracking it',
      [
        quota('a', { pods: '2', 'requests.cpu': '1' }, { pods: '1', 'requests.cpu': '100m' }),
        quota('b', { 'limits.memory': '1Gi' }, { 'limits.memory': '0' }),
        quota('c', { services: '1' }, { services: '0' }),
      ],
      pod('x', { requests: { cpu: '250m' }, limits: { memory: '128Mi' } }),
      { a: { pods: '2', 'requests.cpu': '350m' }, b: { 'limits.memory': '128Mi' } },
    ],
    ['a terminal pod adds nothing to pods', [quota('q', { pods: '1' }, { pods: '1' })], pod('x', undefined, 'Succeeded'), {}],
    ['a BestEffort quota leaves a pod with requests alone', [quota('q', { pods: '1' }, { pods: '1' }, ['BestEffort'])], pod('x', { requests: { cpu: '1' } }), {}],
  ])('admits: %s', (_n, quotas, obj, want) => {
    const d = checkQuotas(quotas, '', 'pods', obj, NOW);
    expect('updated' in d && Object.fromEntries(d.updated.map((q) => [q.metadata.name, q.status!.used]))).toEqual(want);
  });
});

it('leaves the cached (frozen) quota alone and returns a writable copy', () => {
  const deepFreeze = <T>(o: T): T => {
    if (o && typeof o === 'object') for (const v of Object.values(Object.freeze(o))) deepFreeze(v);
    return o;
  };
  const cached = deepFreeze(quota('q', { pods: '2' }, { pods: '0' }));
  const d = checkQuotas([cached], '', 'pods', pod('x'), NOW);
  const [copy] = 'updated' in d ? d.updated : [];
  expect(cached.status!.used).toEqual({ pods: '0' });
  expect(copy!.status!.used).toEqual({ pods: '1' });
  expect(Object.isFrozen(copy!.metadata)).toBe(false);
});

describe('the plugin: one count at a time, conflicts retried', () => {
  const info = lookupResource('', 'v1', 'pods')!;
  const attrs = (p: Pod, dryRun = false): AdmissionAttributes => {
    const hooks = new AdmissionHooks();
    return {
      operation: 'CREATE',
      info,
      namespace: 'default',
      name: p.metadata.name!,
      object: p,
      ctx: { user: { name: 'u', groups: [] } },
      dryRun,
      onRollback: hooks.onRollback,
      onCommit: hooks.onCommit,
    };
  };
  /** A store of one quota whose status writes take a turn of the event loop and check the resourceVersion. */
  const store = (q: ResourceQuota, conflicts = 0) => {
    let current = q;
    const writes: string[] = [];
    const source: QuotaSource = {
      any: () => true,
      list: async () => [current],
      async updateStatus(next) {
        const rq = next as ResourceQuota;
        await new Promise((r) => setTimeout(r, 1));
        if (conflicts > 0 || rq.metadata.resourceVersion !== current.metadata.resourceVersion) {
          conflicts--;
          current = { ...current, metadata: { ...current.metadata, resourceVersion: String(Number(current.metadata.resourceVersion) + 1) } };
          throw conflict({ group: '', resource: 'resourcequotas' }, rq.metadata.name!, 'the object has been modified');
        }
        current = { ...rq, metadata: { ...rq.metadata, resourceVersion: String(Number(rq.metadata.resourceVersion) + 1) } };
        writes.push(rq.status!.used!.pods!);
      },
    };
    return { source, writes, current: () => current };
  };
  const outcome = (p: Promise<void> | void) =>
    Promise.resolve(p).then(
      () => 'admitted',
      (e: unknown) => (e instanceof StatusError ? e.status.message : String(e)),
    );

  it('two quick creates against pods=2 with one used: the first passes, the second is refused', async () => {
    const s = store(quota('q', { pods: '2' }, { pods: '1' }));
    const plugin = resourceQuota(s.source, () => NOW);
    const results = await Promise.all([outcome(plugin.validate!(attrs(pod('a')))), outcome(plugin.validate!(attrs(pod('b'))))]);
    expect(results).toEqual(['admitted', 'pods "b" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2']);
    expect(s.writes).toEqual(['2']);
  });

  it('a conflict is counted again; a dry run writes nothing', async () => {
    const s = store(quota('q', { pods: '5' }, { pods: '1' }), 1);
    const plugin = resourceQuota(s.source, () => NOW);
    expect(await outcome(plugin.validate!(attrs(pod('a'))))).toBe('admitted');
    expect(s.writes).toEqual(['2']);
    expect(await outcome(plugin.validate!(attrs(pod('b'), true)))).toBe('admitted');
    expect(s.writes).toEqual(['2']);
  });

  it('answers the conflict after three lost races', async () => {
    const s = store(quota('q', { pods: '5' }, { pods: '1' }), 3);
    expect(await outcome(resourceQuota(s.source, () => NOW).validate!(attrs(pod('a'))))).toMatch(/^Operation cannot be fulfilled on resourcequotas "q"/);
  });
});
