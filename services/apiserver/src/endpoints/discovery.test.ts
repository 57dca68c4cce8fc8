import { describe, expect, it } from 'vitest';
import { RESOURCES, type ResourceInfo } from '@kubelab/api';
import { aggregatedDiscovery, groupList, resourceList } from './discovery.js';
import { aggregatedDiscoveryVersion } from './negotiate.js';

const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

describe('aggregatedDiscoveryVersion: the first range the server can answer wins', () => {
  it.each([
    ['kubectl 1.32', `${V2},${V2BETA1},application/json`, 'v2'],
    ['kubectl 1.27', `${V2BETA1},application/json`, 'v2beta1'],
    ['legacy first', `application/json,${V2}`, undefined],
    ['no Accept', undefined, undefined],
    ['*/* is legacy', '*/*', undefined],
    ['aggregated protobuf is passed over for the next range', `application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,${V2}`, 'v2'],
    ['an unknown discovery version is passed over', 'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json', undefined],
    ['text/html is passed over', `text/html,${V2}`, 'v2'],
  ])('%s', (_name, accept, want) => {
    expect(aggregatedDiscoveryVersion(accept)).toBe(want);
  });
});

type Doc = { kind: string; apiVersion: string; items: { metadata: { name?: string }; versions: { version: string; freshness: string; resources: Record<string, unknown>[] }[] }[] };
const parse = (legacy: boolean, v: 'v2' | 'v2beta1' = 'v2', runtime: readonly ResourceInfo[] = []) => JSON.parse(aggregatedDiscovery(legacy, v, runtime).body) as Doc;

describe('aggregatedDiscovery', () => {
  it('/api: the core group without a name, pods with their subresources', () => {
    const doc = parse(true);
    expect(doc.kind).toBe('APIGroupDiscoveryList');
    expect(doc.apiVersion).toBe('apidiscovery.k8s.io/v2');
    expect(doc.items).toHaveLength(1);
    expect(doc.items[0]!.metadata).toEqual({ creationTimestamp: null });
    const v1 = doc.items[0]!.versions[0]!;
    expect(v1.version).toBe('v1');
    expect(v1.freshness).toBe('Current');
    const pods = v1.resources.find((r) => r.resource === 'pods')!;
    expect(pods).toMatchObject({
      resource: 'pods',
      responseKind: { group: '', version: '', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
    });
    const subs = pods.subresources as { subresource: string }[];
    expect(subs.find((s) => s.subresource === 'eviction')).toEqual({ subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] });
    expect(subs.find((s) => s.subresource === 'status')).toEqual({ subresource: 'status', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] });
    const nodes = v1.resources.find((r) => r.resource === 'nodes')!;
    expect(nodes.scope).toBe('Cluster');
    expect(nodes.subresources).toContainEqual({ subresource: 'proxy', responseKind: { group: '', version: '', kind: 'NodeProxyOptions' }, verbs: ['create', 'delete', 'get', 'patch', 'update'] });
  });

  it('/apis: every named group, versions in preference order, scale as autoscaling/v1', () => {
    const doc = parse(false, 'v2beta1');
    expect(doc.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    expect(doc.items.map((i) => i.metadata.name)).toEqual((groupList() as { groups: { name: string }[] }).groups.map((g) => g.name));
    const authn = doc.items.find((i) => i.metadata.name === 'authentication.k8s.io')!;
    expect(authn.versions.map((v) => v.version)).toEqual(['v1', 'v1beta1']);
    const deploy = doc.items.find((i) => i.metadata.name === 'apps')!.versions[0]!.resources.find((r) => r.resource === 'deployments')!;
    expect(deploy.subresources).toContainEqual({ subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] });
  });

  it('resources from the provider flow into every document (a run-time group)', () => {
    const widget: ResourceInfo = {
      group: 'example.com',
      version: 'v1alpha1',
      resource: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      listKind: 'WidgetList',
      namespaced: true,
      shortNames: ['wd'],
      categories: [],
      verbs: ['get', 'list'],
      subresources: ['status'],
    };
    const doc = parse(false, 'v2', [widget]);
    expect(doc.items.at(-1)!.metadata.name).toBe('example.com');
    expect(doc.items.at(-1)!.versions[0]!.resources[0]).toMatchObject({ resource: 'widgets', shortNames: ['wd'], subresources: [{ subresource: 'status' }] });
    expect(resourceList('example.com', 'v1alpha1', [widget])).toMatchObject({ groupVersion: 'example.com/v1alpha1', resources: [{ name: 'widgets' }, { name: 'widgets/status' }] });
  });

  it('the ETag is the quoted upper-case SHA-512 of the body and changes with it', () => {
    const a = aggregatedDiscovery(false, 'v2');
    expect(a.etag).toMatch(/^"[0-9A-F]{128}"$/);
    expect(aggregatedDiscovery(false, 'v2').etag).toBe(a.etag);
    expect(aggregatedDiscovery(false, 'v2', [{ ...RESOURCES[0]!, group: 'example.com', resource: 'gadgets' }]).etag).not.toBe(a.etag);
    expect(a.contentType).toBe(V2);
  });
});
