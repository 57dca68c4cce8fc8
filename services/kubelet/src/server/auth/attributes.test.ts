import { describe, expect, it } from 'vitest';
import { isSubpath, nodeRequestAttributes } from './attributes.js';

const jane = { name: 'jane', groups: ['system:authenticated'] };

describe('nodeRequestAttributes (upstream nodeAuthorizerAttributesGetter)', () => {
  it.each([
    ['GET', '/containerLogs/default/web/app', 'get', 'proxy'],
    ['POST', '/exec/default/web/app', 'create', 'proxy'],
    ['GET', '/exec/default/web/app', 'get', 'proxy'],
    ['GET', '/pods', 'get', 'proxy'],
    ['GET', '/healthz', 'get', 'proxy'],
    ['GET', '/metrics', 'get', 'metrics'],
    ['GET', '/metrics/cadvisor', 'get', 'metrics'],
    ['GET', '/metricsfoo', 'get', 'proxy'],
    ['GET', '/stats', 'get', 'stats'],
    ['GET', '/stats/summary', 'get', 'stats'],
    ['GET', '/logs/', 'get', 'log'],
    ['GET', '/logs/syslog', 'get', 'log'],
    ['PUT', '/pods', 'update', 'proxy'],
    ['PATCH', '/pods', 'patch', 'proxy'],
    ['DELETE', '/pods', 'delete', 'proxy'],
    ['HEAD', '/pods', '', 'proxy'],
  ])('%s %s → verb %j, nodes/%s', (method, path, verb, subresource) => {
    expect(nodeRequestAttributes(jane, method, path, 'node-1')).toEqual({
      user: jane,
      verb,
      resourceRequest: true,
      namespace: '',
      apiGroup: '',
      apiVersion: 'v1',
      resource: 'nodes',
      subresource,
      name: 'node-1',
      path,
    });
  });

  it.each([
    ['/stats', '/stats/', true],
    ['/stats/summary', '/stats', true],
    ['/statsx', '/stats', false],
    ['/', '/stats', false],
  ])('isSubpath(%j, %j) = %j', (path, prefix, want) => expect(isSubpath(path, prefix)).toBe(want));
});
