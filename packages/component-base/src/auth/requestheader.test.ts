import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { TestPki } from '@kubelab/pki/testing';
import { requestHeaderFromConfigMap, requestHeaderUser, type RequestHeaderConfig } from './requestheader.js';

describe('requestHeaderUser (the front proxy vouches for X-Remote-*)', () => {
  let frontProxy: TestPki;
  let cluster: TestPki;
  let proxyCert: X509Certificate;
  let otherProxyCert: X509Certificate;
  let clusterCert: X509Certificate;
  let cfg: RequestHeaderConfig;
  const socket = (peer: X509Certificate | undefined, authorized = true) => ({ getPeerX509Certificate: () => peer, authorized }) as never;

  beforeAll(async () => {
    frontProxy = await TestPki.create('front-proxy-ca');
    cluster = await TestPki.create('kubernetes');
    proxyCert = new X509Certificate((await frontProxy.client({ commonName: 'front-proxy-client' })).cert);
    otherProxyCert = new X509Certificate((await frontProxy.client({ commonName: 'someone-else' })).cert);
    clusterCert = new X509Certificate((await cluster.client({ commonName: 'front-proxy-client' })).cert);
    cfg = requestHeaderFromConfigMap({
      'requestheader-client-ca-file': frontProxy.caPem,
      'requestheader-allowed-names': '["front-proxy-client"]',
      'requestheader-username-headers': '["X-Remote-User"]',
      'requestheader-group-headers': '["X-Remote-Group"]',
      'requestheader-extra-headers-prefix': '["X-Remote-Extra-"]',
    })!;
  });

  it('reads the user, groups and extras the allowed proxy sent', () => {
    const headers = { 'x-remote-user': 'jane', 'x-remote-group': ['dev', 'system:authenticated'], 'x-remote-extra-scopes': ['a', 'b'] };
    expect(requestHeaderUser({ headers, socket: socket(proxyCert) }, cfg)).toEqual({ name: 'jane', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } });
  });

  it('keeps repeated headers apart, as Node receives them (joined in headers, apart in headersDistinct)', () => {
    const req = {
      headers: { 'x-remote-user': 'jane', 'x-remote-group': 'kubeadm:cluster-admins, system:authenticated' },
      headersDistinct: { 'x-remote-user': ['jane'], 'x-remote-group': ['kubeadm:cluster-admins', 'system:authenticated'] },
      socket: socket(proxyCert),
    };
    expect(requestHeaderUser(req, cfg)).toEqual({ name: 'jane', groups: ['kubeadm:cluster-admins', 'system:authenticated'] });
  });

  it('leaves certificates of other CAs and requests without one to the other authenticators', () => {
    expect(requestHeaderUser({ headers: { 'x-remote-user': 'jane' }, socket: socket(clusterCert) }, cfg)).toBeUndefined();
    expect(requestHeaderUser({ headers: { 'x-remote-user': 'jane' }, socket: socket(undefined) }, cfg)).toBeUndefined();
  });

  it('refuses a proxy not in the allowed names, and a proxy certificate naming nobody', () => {
    expect(requestHeaderUser({ headers: { 'x-remote-user': 'jane' }, socket: socket(otherProxyCert) }, cfg)).toEqual(new Error('x509: subject with cn=someone-else is not in the allowed list'));
    expect(requestHeaderUser({ headers: {}, socket: socket(proxyCert) }, cfg)).toBeInstanceOf(Error);
  });

  it('has no config without a requestheader CA', () => {
    expect(requestHeaderFromConfigMap({ 'client-ca-file': 'x' })).toBeUndefined();
  });
});
