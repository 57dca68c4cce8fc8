import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from './requestinfo.js';
import { responseShape } from './negotiate.js';

const parse = (method: string, path: string) => parseRequestInfo(method, new URL(path, 'http://x'));

describe('parseRequestInfo', () => {
  it.each([
    ['GET', '/version?timeout=5s', { kind: 'version' }],
    ['GET', '/api', { kind: 'legacyVersions' }],
    ['GET', '/apis', { kind: 'groupList' }],
    ['GET', '/apis/apps', { kind: 'group', group: 'apps' }],
    ['GET', '/api/v1', { kind: 'resourceList', group: '', version: 'v1' }],
    ['GET', '/openapi/v3', { kind: 'openapiV3Root' }],
    ['GET', '/openapi/v2', { kind: 'openapiV2' }],
    ['GET', '/openapi/v2/x', { kind: 'notFound' }],
    ['GET', '/openapi/v3/apis/apps/v1?hash=AB', { kind: 'openapiV3', key: 'apis/apps/v1' }],
    ['GET', '/api/v1/pods', { kind: 'resource', group: '', version: 'v1', resource: 'pods', verb: 'list' }],
    ['GET', '/api/v1/namespaces/default/pods?watch=true', { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'pods', verb: 'watch' }],
    ['GET', '/api/v1/namespaces/default/pods/web/log', { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'pods', name: 'web', subresource: 'log', verb: 'get' }],
    [
      'PATCH',
      '/apis/apps/v1/namespaces/ns1/deployments/web/scale',
      { kind: 'resource', group: 'apps', version: 'v1', namespace: 'ns1', resource: 'deployments', name: 'web', subresource: 'scale', verb: 'patch' },
    ],
    ['GET', '/api/v1/nodes/node-1/proxy/metrics', { kind: 'resource', group: '', version: 'v1', resource: 'nodes', name: 'node-1', subresource: 'proxy', verb: 'get', proxyPath: '/metrics' }],
    [
      'POST',
      '/api/v1/namespaces/default/pods/web:80/proxy/a/b/?x=1',
      { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'pods', name: 'web:80', subresource: 'proxy', verb: 'create', proxyPath: '/a/b/' },
    ],
    [
      'GET',
      '/api/v1/namespaces/default/services/https:web:443/proxy/',
      { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'services', name: 'https:web:443', subresource: 'proxy', verb: 'get', proxyPath: '/' },
    ],
    [
      'GET',
      '/api/v1/namespaces/default/services/web/proxy',
      { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'services', name: 'web', subresource: 'proxy', verb: 'get', proxyPath: '' },
    ],
    ['GET', '/api/v1/namespaces/default/pods/web/log/extra', { kind: 'notFound' }],
    ['GET', '/api/v1/namespaces/kube-system', { kind: 'resource', group: '', version: 'v1', resource: 'namespaces', name: 'kube-system', verb: 'get' }],
    ['PUT', '/api/v1/namespaces/team-a/finalize', { kind: 'resource', group: '', version: 'v1', resource: 'namespaces', name: 'team-a', subresource: 'finalize', verb: 'update' }],
    ['DELETE', '/api/v1/namespaces/default/pods', { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'pods', verb: 'deletecollection' }],
    [
      'POST',
      '/api/v1/namespaces/default/pods/web/eviction',
      { kind: 'resource', group: '', version: 'v1', namespace: 'default', resource: 'pods', name: 'web', subresource: 'eviction', verb: 'create' },
    ],
    ['GET', '/api/v1/namespaces/default/pods/web/log/extra', { kind: 'notFound' }],
    ['GET', '/healthz/foo', { kind: 'notFound' }],
  ])('%s %s', (method, path, want) => {
    expect(parse(method, path)).toEqual(want);
  });
});

describe('responseShape', () => {
  it.each([
    ['application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'table'],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'table'],
    ['application/json', 'object'],
    ['application/vnd.kubernetes.protobuf,application/json', 'object'],
    ['application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json', 'partialMetadata'],
    ['application/json;as=Table;v=v2;g=meta.k8s.io,application/json', 'object'],
    [undefined, 'object'],
  ])('%s → %s', (accept, want) => {
    expect(responseShape(accept)).toBe(want);
  });
});
