// A throwaway PKI for tests (ECDSA keys: a few milliseconds each): one CA,
// serving certificates and client identities on demand. Never written to disk
// unless a test asks for a kubeconfig file.

import { CertificateAuthority, type CertKeyPem, type CertificateSpec } from './certificate.js';

export interface Identity {
  commonName: string;
  organizations?: readonly string[];
}

/** The identity tests use by default: a member of system:masters, as kubeadm's super-admin. */
export const TEST_ADMIN: Identity = { commonName: 'kubelab-test-admin', organizations: ['system:masters'] };

export class TestPki {
  private constructor(readonly ca: CertificateAuthority) {}

  static async create(commonName = 'kubernetes'): Promise<TestPki> {
    return new TestPki(await CertificateAuthority.create(commonName, { algorithm: 'ECDSA-P256' }));
  }

  get caPem(): string {
    return this.ca.certPem;
  }

  /** A serving certificate for localhost, 127.0.0.1 and the given names/addresses. */
  serving(opts: { commonName?: string; dnsNames?: string[]; ipAddresses?: string[] } = {}): Promise<CertKeyPem> {
    return this.ca.issue(
      { commonName: opts.commonName ?? 'kube-apiserver', usages: ['server'], dnsNames: ['localhost', ...(opts.dnsNames ?? [])], ipAddresses: ['127.0.0.1', ...(opts.ipAddresses ?? [])] },
      { algorithm: 'ECDSA-P256' },
    );
  }

  /** A client certificate: CN = user, O = groups. */
  client(identity: Identity = TEST_ADMIN, extra: Partial<CertificateSpec> = {}): Promise<CertKeyPem> {
    return this.ca.issue({ ...identity, usages: ['client'], ...extra }, { algorithm: 'ECDSA-P256' });
  }
}
