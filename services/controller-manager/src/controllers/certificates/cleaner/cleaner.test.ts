import { describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '@kubelab/api';
import { GVR } from '@kubelab/client';
import { CertificateAuthority, createCsr, generateKeyPair, verifyCsr } from '@kubelab/pki';
import { fakeEnv } from '../../../testing/fakes.js';
import { CsrCleanerController } from './csr-cleaner-controller.js';
import { cleanReason, type CleanReason } from './decisions.js';

const NOW = Date.parse('2026-01-02T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString().replace(/\.\d+Z$/, 'Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
type Status = CertificateSigningRequest['status'];

function csr(name: string, created: string, status?: Status): CertificateSigningRequest {
  return {
    apiVersion: 'certificates.k8s.io/v1',
    kind: 'CertificateSigningRequest',
    metadata: { name, creationTimestamp: created },
    spec: { request: '', signerName: 'kubernetes.io/kube-apiserver-client-kubelet' },
    ...(status ? { status } : {}),
  };
}
const cond = (type: string, at: string) => ({ type, status: 'True', lastUpdateTime: at });
/** A certificate reader for the table: `valid` expires tomorrow, `expired` yesterday, anything else does not parse. */
const notAfter = (cert: string) => (cert === 'valid' ? NOW + 24 * HOUR : cert === 'expired' ? NOW - 24 * HOUR : undefined);

describe('csrcleaner decisions (upstream cleaner.go)', () => {
  it.each<[string, Status, string, CleanReason | undefined]>([
    ['pending for 23h', undefined, ago(23 * HOUR), undefined],
    ['pending for 25h', undefined, ago(25 * HOUR), 'pending more than 24h'],
    ['pending with an empty status for 25h', {}, ago(25 * HOUR), 'pending more than 24h'],
    ['approved 2h ago, not issued', { conditions: [cond('Approved', ago(2 * HOUR))] }, ago(3 * HOUR), undefined],
    ['approved 59m ago and issued', { conditions: [cond('Approved', ago(59 * MIN))], certificate: 'valid' }, ago(3 * HOUR), undefined],
    ['approved 61m ago and issued', { conditions: [cond('Approved', ago(61 * MIN))], certificate: 'valid' }, ago(3 * HOUR), 'approved and issued more than 1h ago'],
    ['denied 30m ago', { conditions: [cond('Denied', ago(30 * MIN))] }, ago(3 * HOUR), undefined],
    ['denied 61m ago', { conditions: [cond('Denied', ago(61 * MIN))] }, ago(3 * HOUR), 'denied more than 1h ago'],
    ['failed 61m ago', { conditions: [cond('Approved', ago(2 * HOUR)), cond('Failed', ago(61 * MIN))] }, ago(3 * HOUR), 'failed more than 1h ago'],
    ['issued just now, certificate expired', { conditions: [cond('Approved', ago(MIN))], certificate: 'expired' }, ago(3 * HOUR), 'certificate expired'],
    ['issued just now, certificate unreadable', { conditions: [cond('Approved', ago(MIN))], certificate: 'garbage' }, ago(3 * HOUR), undefined],
    ['a condition without a time is never old', { conditions: [{ type: 'Denied', status: 'True' }] }, ago(48 * HOUR), undefined],
  ])('%s', (_what, status, created, want) => {
    expect(cleanReason(csr('x', created, status), NOW, notAfter)).toBe(want);
  });
});

describe('csrcleaner controller', () => {
  it('deletes, from its cache, the requests past their time, reading the issued certificate', async () => {
    const env = fakeEnv();
    const ca = await CertificateAuthority.create('kubernetes', { algorithm: 'ECDSA-P256' });
    const request = verifyCsr(await createCsr({ commonName: 'system:node:node-1', organizations: ['system:nodes'] }, await generateKeyPair('ECDSA-P256')));
    const now = new Date(env.clock.now());
    const expiredCert = await ca.signRequest(request, { usages: ['client auth'], ttlMs: MIN, now: new Date(now.getTime() - HOUR) });
    const validCert = await ca.signRequest(request, { usages: ['client auth'], ttlMs: 24 * HOUR, now });
    const at = (ms: number) => new Date(now.getTime() - ms).toISOString().replace(/\.\d+Z$/, 'Z');
    const b64 = (pem: string) => Buffer.from(pem).toString('base64');
    env.fake.seed(
      GVR.certificateSigningRequests,
      csr('fresh', at(MIN)),
      csr('stale-pending', at(25 * HOUR)),
      csr('expired', at(10 * MIN), { conditions: [cond('Approved', at(5 * MIN))], certificate: b64(expiredCert) }),
      csr('issued', at(10 * MIN), { conditions: [cond('Approved', at(5 * MIN))], certificate: b64(validCert) }),
    );
    const c = new CsrCleanerController(env.ctx);
    await env.sync();
    await c.sweep();
    expect(env.fake.actionLines().sort()).toEqual(['delete certificatesigningrequests expired', 'delete certificatesigningrequests stale-pending']);
    await env.stop();
  });
});
