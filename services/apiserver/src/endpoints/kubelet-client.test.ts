import { describe, expect, it } from 'vitest';
import { kubeletResponseError, kubeletTlsOptions, kubeletUrl } from './kubelet-client.js';

describe('kubeletResponseError (LogREST GenericHttpResponseChecker)', () => {
  it.each([
    [
      403,
      'Forbidden (user=kube-apiserver-kubelet-client, verb=get, resource=nodes, subresource=proxy)',
      'Forbidden',
      'Forbidden (user=kube-apiserver-kubelet-client, verb=get, resource=nodes, subresource=proxy) ( pods/log web)',
    ],
    [401, 'Unauthorized', 'Unauthorized', 'the server has asked for the client to provide credentials ( pods/log web)'],
    [404, 'pod does not exist', 'NotFound', 'the server could not find the requested resource ( pods/log web)'],
    [400, 'container "side" in pod "web" is waiting to start: ContainerCreating', 'BadRequest', 'container "side" in pod "web" is waiting to start: ContainerCreating'],
    [500, 'runtime down', 'InternalError', 'Internal error occurred: runtime down'],
    [503, 'busy', 'InternalError', 'an error on the server ("busy") has prevented the request from succeeding ( pods/log web)'],
    [418, 'teapot', '', 'the server responded with the status code 418 but did not return more information ( pods/log web)'],
  ])('%i %j → %s', (code, body, reason, message) => {
    const e = kubeletResponseError(code, body, 'pods/log', 'web');
    expect(e.status).toMatchObject({ code, reason, message });
  });

  it('names the resource in the details of a generic answer', () => {
    expect(kubeletResponseError(403, 'Forbidden (…)', 'pods/log', 'web').status.details).toEqual({ name: 'web', kind: 'pods/log' });
  });
});

describe('kubelet transport', () => {
  it("verifies the kubelet's certificate only against --kubelet-certificate-authority", () => {
    expect(kubeletTlsOptions({})).toEqual({ rejectUnauthorized: false });
    expect(kubeletTlsOptions({ certPem: 'C', keyPem: 'K' })).toEqual({ cert: 'C', key: 'K', rejectUnauthorized: false });
    expect(kubeletTlsOptions({ certPem: 'C', keyPem: 'K', caPem: 'CA' })).toEqual({ cert: 'C', key: 'K', ca: 'CA', rejectUnauthorized: true });
  });

  it('dials https, IPv6 hosts bracketed', () => {
    expect(kubeletUrl({ host: '10.0.0.5', port: 10250 }, '/containerLogs/a/b/c?follow=true').href).toBe('https://10.0.0.5:10250/containerLogs/a/b/c?follow=true');
    expect(kubeletUrl({ host: 'fd00::5', port: 10250 }, '/exec/a/b/c').host).toBe('[fd00::5]:10250');
  });
});
