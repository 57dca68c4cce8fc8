import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from '../endpoints/requestinfo.js';
import { requestAttributes } from './attributes.js';

const jane = { name: 'jane', groups: ['system:authenticated'] };

function attrs(method: string, path: string) {
  const url = new URL(path, 'http://x');
  const a = requestAttributes(jane, method, url, parseRequestInfo(method, url));
  // The fields that differ between cases; user is always jane.
  const { user: _user, ...rest } = a;
  return rest;
}

const nonResource = (verb: string, path: string) => ({ verb, resourceRequest: false, path, namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' });
const resource = (verb: string, path: string, r: { group?: string; version?: string; resource: string; namespace?: string; name?: string; subresource?: string; fieldSelector?: string }) => ({
  verb,
  resourceRequest: true,
  path,
  namespace: r.namespace ?? '',
  apiGroup: r.group ?? '',
  apiVersion: r.version ?? 'v1',
  resource: r.resource,
  subresource: r.subresource ?? '',
  name: r.name ?? '',
  ...(r.fieldSelector ? { fieldSelector: r.fieldSelector } : {}),
});

describe('requestAttributes', () => {
  it.each([
    // non-resource paths: discovery, version, openapi, health, metrics, unknown paths
    ['GET', '/api', nonResource('get', '/api')],
    ['GET', '/api/v1', nonResource('get', '/api/v1')],
    ['GET', '/apis', nonResource('get', '/apis')],
    ['GET', '/apis/apps', nonResource('get', '/apis/apps')],
    ['GET', '/apis/apps/v1', nonResource('get', '/apis/apps/v1')],
    ['GET', '/version', nonResource('get', '/version')],
    ['GET', '/openapi/v3', nonResource('get', '/openapi/v3')],
    ['GET', '/openapi/v2', nonResource('get', '/openapi/v2')],
    ['GET', '/openapi/v3/apis/apps/v1?hash=AB', nonResource('get', '/openapi/v3/apis/apps/v1')],
    ['GET', '/healthz', nonResource('get', '/healthz')],
    ['GET', '/livez/etcd', nonResource('get', '/livez/etcd')],
    ['GET', '/readyz?verbose', nonResource('get', '/readyz')],
    ['GET', '/metrics', nonResource('get', '/metrics')],
    ['POST', '/logs', nonResource('post', '/logs')],
    ['HEAD', '/healthz', nonResource('head', '/healthz')],
    // resource requests: every verb, scope and subresource
    ['GET', '/api/v1/pods', resource('list', '/api/v1/pods', { resource: 'pods' })],
    ['GET', '/api/v1/namespaces/default/pods?watch=true', resource('watch', '/api/v1/namespaces/default/pods', { resource: 'pods', namespace: 'default' })],
    ['GET', '/api/v1/namespaces/default/pods/web', resource('get', '/api/v1/namespaces/default/pods/web', { resource: 'pods', namespace: 'default', name: 'web' })],
    ['GET', '/api/v1/namespaces/default/pods/web/log', resource('get', '/api/v1/namespaces/default/pods/web/log', { resource: 'pods', namespace: 'default', name: 'web', subresource: 'log' })],
    ['POST', '/api/v1/namespaces/default/pods', resource('create', '/api/v1/namespaces/default/pods', { resource: 'pods', namespace: 'default' })],
    ['PUT', '/api/v1/nodes/n1/status', resource('update', '/api/v1/nodes/n1/status', { resource: 'nodes', name: 'n1', subresource: 'status' })],
    [
      'PATCH',
      '/apis/apps/v1/namespaces/ns1/deployments/web/scale',
      resource('patch', '/apis/apps/v1/namespaces/ns1/deployments/web/scale', { group: 'apps', resource: 'deployments', namespace: 'ns1', name: 'web', subresource: 'scale' }),
    ],
    ['DELETE', '/api/v1/namespaces/default/pods/web', resource('delete', '/api/v1/namespaces/default/pods/web', { resource: 'pods', namespace: 'default', name: 'web' })],
    ['DELETE', '/api/v1/namespaces/default/pods', resource('deletecollection', '/api/v1/namespaces/default/pods', { resource: 'pods', namespace: 'default' })],
    ['GET', '/api/v1/namespaces/kube-system', resource('get', '/api/v1/namespaces/kube-system', { resource: 'namespaces', name: 'kube-system' })],
    [
      'POST',
      '/api/v1/namespaces/default/pods/web/binding',
      resource('create', '/api/v1/namespaces/default/pods/web/binding', { resource: 'pods', namespace: 'default', name: 'web', subresource: 'binding' }),
    ],
    [
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      resource('create', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', { group: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }),
    ],
    // a list or watch narrowed to one name is authorized as that name (upstream requestinfo.go)
    ['GET', '/api/v1/nodes?fieldSelector=metadata.name%3Dnode-1&watch=1', resource('watch', '/api/v1/nodes', { resource: 'nodes', name: 'node-1', fieldSelector: 'metadata.name=node-1' })],
    ['GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1', resource('list', '/api/v1/pods', { resource: 'pods', fieldSelector: 'spec.nodeName=node-1' })],
  ])('%s %s', (method, path, want) => {
    expect(attrs(method, path)).toEqual(want);
  });
});
