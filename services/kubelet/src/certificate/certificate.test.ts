import { lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '@kubelab/api';
import { createLogger } from '@kubelab/component-base';
import { FakeClock } from '@kubelab/client/testing';
import { TestPki } from '@kubelab/pki/testing';
import { generateKeyPair, publicKeyToPem } from '@kubelab/pki';
import { kubeconfigStillValid, writeKubeconfigFromBootstrapping } from './bootstrap.js';
import { clientUsages, digestedName, outcome } from './request.js';
import { ClientCertificateManager, nextRotationDeadline } from './rotation.js';
import { CertificateFileStore, pairTimestamp, splitPem } from './store.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'kubelab-cert-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('nextRotationDeadline (70–90 % of the lifetime)', () => {
  const nb = new Date('2026-01-01T00:00:00Z');
  const na = new Date('2026-01-11T00:00:00Z'); // ten days
  it.each<[number, string]>([
    [0, '2026-01-08T00:00:00.000Z'],
    [0.5, '2026-01-09T00:00:00.000Z'],
    [0.999999, '2026-01-09T23:59:59.827Z'],
  ])('random %s', (r, want) => expect(nextRotationDeadline(nb, na, () => r).toISOString()).toBe(want));
});

describe('the CSR name (digestedName)', () => {
  it('is node-csr- and 43 base64url characters, the same for the same key, another for another key or subject', async () => {
    const a = await publicKeyToPem((await generateKeyPair('ECDSA-P256')).publicKey);
    const b = await publicKeyToPem((await generateKeyPair('ECDSA-P256')).publicKey);
    const subject = { commonName: 'system:node:node-1', organizations: ['system:nodes'] };
    const usages = clientUsages('ec');
    expect(digestedName(a, subject, usages)).toMatch(/^node-csr-[A-Za-z0-9_-]{43}$/);
    expect(digestedName(a, subject, usages)).toBe(digestedName(a, subject, usages));
    expect(digestedName(b, subject, usages)).not.toBe(digestedName(a, subject, usages));
    expect(digestedName(a, { ...subject, commonName: 'system:node:node-2' }, usages)).not.toBe(digestedName(a, subject, usages));
  });
});

describe('outcome of a request', () => {
  const csr = (status: CertificateSigningRequest['status']): CertificateSigningRequest => ({ metadata: { name: 'x' }, spec: { request: '', signerName: 's' }, ...(status ? { status } : {}) });
  it('pending, issued, denied, failed', () => {
    expect(outcome(csr(undefined))).toBeUndefined();
    expect(outcome(csr({ conditions: [{ type: 'Approved', status: 'True' }] }))).toBeUndefined();
    expect(outcome(csr({ conditions: [{ type: 'Approved', status: 'True' }], certificate: Buffer.from('PEM').toString('base64') }))).toBe('PEM');
    expect(() => outcome(csr({ conditions: [{ type: 'Denied', status: 'True', reason: 'NotYou', message: 'no' }] }))).toThrow('certificate signing request is denied, reason: NotYou, message: no');
    expect(() =>
      outcome(
        csr({
          conditions: [
            { type: 'Approved', status: 'True' },
            { type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'bad' },
          ],
        }),
      ),
    ).toThrow('certificate signing request failed, reason: SignerValidationFailure, message: bad');
  });
});

describe('the certificate file store', () => {
  it('writes dated pairs and swaps the current symlink; reads back validity', async () => {
    const pki = await TestPki.create();
    const dir = tmp();
    const store = new CertificateFileStore(join(dir, 'pki'));
    expect(store.current()).toBeUndefined();
    const one = await pki.client({ commonName: 'system:node:node-1', organizations: ['system:nodes'] });
    store.update(one.cert, one.key, new Date('2026-12-01T18:30:00Z'));
    expect(readlinkSync(store.currentPath)).toBe('kubelet-client-2026-12-01-18-30-00.pem');
    const two = await pki.client({ commonName: 'system:node:node-1', organizations: ['system:nodes'] });
    store.update(two.cert, two.key, new Date('2026-12-01T18:31:00Z'));
    expect(readlinkSync(store.currentPath)).toBe('kubelet-client-2026-12-01-18-31-00.pem');
    expect(lstatSync(join(dir, 'pki', 'kubelet-client-2026-12-01-18-30-00.pem')).mode & 0o777).toBe(0o600);
    const nl = (s: string) => `${s.trim()}\n`;
    expect(store.current()).toMatchObject({ certPem: nl(two.cert), keyPem: nl(two.key) });
    expect(splitPem(readFileSync(store.currentPath, 'utf8'))).toEqual({ certPem: nl(two.cert), keyPem: nl(two.key) });
    expect(pairTimestamp(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02-03-04-05');
  });

  it('a kubeconfig pointing at it is valid until the certificate expires', async () => {
    const pki = await TestPki.create();
    const dir = tmp();
    const store = new CertificateFileStore(join(dir, 'pki'));
    const pair = await pki.client({ commonName: 'system:node:node-1', organizations: ['system:nodes'] }, { validityDays: 1 });
    store.update(pair.cert, pair.key);
    const path = join(dir, 'kubelet.conf');
    expect(kubeconfigStillValid(path)).toBe(false);
    writeKubeconfigFromBootstrapping(path, { server: 'https://127.0.0.1:6443', caPem: pki.caPem, insecureSkipTlsVerify: false }, store.currentPath);
    expect(kubeconfigStillValid(path)).toBe(true);
    expect(kubeconfigStillValid(path, new Date(Date.now() + 2 * 86400_000))).toBe(false);
  });
});

describe('ClientCertificateManager', () => {
  it('schedules the rotation at the jittered deadline of the stored certificate', async () => {
    const pki = await TestPki.create();
    const dir = tmp();
    const store = new CertificateFileStore(dir);
    const pair = await pki.client({ commonName: 'system:node:node-1', organizations: ['system:nodes'] }, { validityDays: 10 });
    store.update(pair.cert, pair.key);
    const current = store.current()!;
    const clock = new FakeClock(current.notBefore.toISOString());
    let asked = 0;
    const m = new ClientCertificateManager({
      store,
      nodeName: 'node-1',
      client: {
        create: async () => {
          asked++;
          throw new Error('refused');
        },
        get: async () => {
          throw new Error('unused');
        },
        watch: () => {
          throw new Error('unused');
        },
      },
      clock,
      log: createLogger({ component: 'kubelet', level: 'error' }),
      onRotated: () => {},
      random: () => 0,
      backoff: { initialMs: 1000, maxMs: 4000 },
    });
    m.start();
    const total = current.notAfter.getTime() - current.notBefore.getTime();
    await clock.advance(total * 0.7 - 1);
    await m.whenIdle();
    expect(asked).toBe(0);
    await clock.advance(1);
    await m.whenIdle();
    expect(asked).toBe(1);
    // A failure retries after the backoff.
    await clock.advance(999);
    await m.whenIdle();
    expect(asked).toBe(1);
    await clock.advance(1);
    await m.whenIdle();
    expect(asked).toBe(2);
    m.stop();
  });

  it("without a stored pair, the kubeconfig's pair (kubeadm init's kubelet.conf) goes into the store and is rotated at once", async () => {
    const pki = await TestPki.create();
    const pair = await pki.client({ commonName: 'system:node:node-1', organizations: ['system:nodes'] });
    const clock = new FakeClock();
    let asked = 0;
    const refused = async (): Promise<never> => {
      asked++;
      throw new Error('refused');
    };
    const store = new CertificateFileStore(tmp());
    const opts = {
      store,
      nodeName: 'node-1',
      client: { create: refused, get: refused, watch: () => ({ stop() {}, [Symbol.asyncIterator]: () => ({ next: refused }) }) },
      clock,
      log: createLogger({ component: 'kubelet', level: 'error' }),
      onRotated: () => {},
      backoff: { initialMs: 60_000, maxMs: 60_000 },
    };
    // Nothing stored, nothing given: nothing to rotate.
    new ClientCertificateManager(opts).start();
    expect([clock.pendingTimers(), store.current()]).toEqual([0, undefined]);
    const m = new ClientCertificateManager({ ...opts, initialCertPem: pair.cert, initialKeyPem: pair.key });
    m.start();
    expect(store.current()?.certPem.trim()).toBe(pair.cert.trim());
    expect(readlinkSync(store.currentPath)).toMatch(/^kubelet-client-\d{4}(-\d\d){5}\.pem$/);
    await clock.advance(0);
    await m.whenIdle();
    expect(asked).toBe(1);
    m.stop();
  });
});
