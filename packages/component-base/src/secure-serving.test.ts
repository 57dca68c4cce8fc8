import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { certificateInfo } from '@kubelab/pki';
import { nonResourceAttributes } from './auth/delegating.js';
import { FlagSet } from './flags.js';
import { secureServing, securePortConfigFrom, withSecureServingFlags } from './secure-serving.js';

const dir = mkdtempSync(join(tmpdir(), 'secure-serving-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const parse = (...argv: string[]) => securePortConfigFrom(withSecureServingFlags(new FlagSet('kube-scheduler')).parse(argv, {}).values);

describe('securePortConfigFrom (upstream SecureServing and Delegating* options)', () => {
  it("has upstream's defaults: no cert dir, the health paths always allowed, 10 s caches", () => {
    expect(parse()).toEqual({ certDir: '', alwaysAllowPaths: ['/healthz', '/readyz', '/livez'], tokenCacheTtlMs: 10_000, authorizedTtlMs: 10_000, unauthorizedTtlMs: 10_000 });
  });

  it('reads the files the flags name', () => {
    writeFileSync(join(dir, 'tls.crt'), 'CERT');
    writeFileSync(join(dir, 'tls.key'), 'KEY');
    writeFileSync(join(dir, 'ca.crt'), 'CA');
    expect(
      parse(
        `--tls-cert-file=${join(dir, 'tls.crt')}`,
        `--tls-private-key-file=${join(dir, 'tls.key')}`,
        `--client-ca-file=${join(dir, 'ca.crt')}`,
        '--authorization-always-allow-paths=/healthz,/metrics/*',
      ),
    ).toMatchObject({ servingTls: { certPem: 'CERT', keyPem: 'KEY' }, clientCaPem: 'CA', alwaysAllowPaths: ['/healthz', '/metrics/*'] });
  });

  it.each([
    [['--tls-cert-file=/x'], '--tls-cert-file and --tls-private-key-file must be given together'],
    [['--client-ca-file=/nonexistent/ca.crt'], '--client-ca-file: cannot read /nonexistent/ca.crt: ENOENT'],
    [['--authorization-always-allow-paths=/a*b'], '--authorization-always-allow-paths: only trailing * allowed in "a*b"'],
    [['--authorization-webhook-cache-authorized-ttl=soon'], 'invalid argument "soon" for "--authorization-webhook-cache-authorized-ttl" flag'],
  ])('%j → %s', (argv, message) => {
    expect(() => parse(...argv)).toThrow(message);
  });

  it('an empty list always allows nothing', () => {
    expect(parse('--authorization-always-allow-paths=').alwaysAllowPaths).toEqual([]);
  });
});

describe('secureServing', () => {
  it('self-signs for localhost, 127.0.0.1 and a specific bind address; the kubeconfig CA is the client CA without --client-ca-file', async () => {
    const s = await secureServing({}, { pairName: 'kube-controller-manager', bindAddress: '10.0.0.5', kubeconfigCaPem: 'KUBECONFIG-CA' });
    expect(certificateInfo(s.certificate.certPem)).toMatchObject({ dnsNames: ['localhost'], ipAddresses: ['127.0.0.1', '10.0.0.5'] });
    expect(s.clientCaPem).toBe('KUBECONFIG-CA');
    expect(s.auth.authentication).toEqual({ x509: true, anonymous: true });
    expect((await s.auth.authorizer.authorize(nonResourceAttributes({ name: 'system:anonymous', groups: [] }, 'GET', '/readyz'))).decision).toBe('Allow');
    expect((await s.auth.authorizer.authorize(nonResourceAttributes({ name: 'system:anonymous', groups: [] }, 'GET', '/metrics'))).decision).toBe('NoOpinion');
  });

  it('--client-ca-file wins; a wildcard bind address adds no SAN', async () => {
    const s = await secureServing({ clientCaPem: 'FLAG-CA' }, { pairName: 'kube-scheduler', bindAddress: '0.0.0.0', kubeconfigCaPem: 'KUBECONFIG-CA' });
    expect(s.clientCaPem).toBe('FLAG-CA');
    expect(certificateInfo(s.certificate.certPem).ipAddresses).toEqual(['127.0.0.1']);
  });
});
