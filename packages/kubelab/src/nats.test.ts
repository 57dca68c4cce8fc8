import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveNatsTls } from './nats.js';

// A state dir as `kubelab up` leaves it (the contents need not be real PEM here).
const dir = mkdtempSync(join(tmpdir(), 'kubelab-nats-'));
mkdirSync(join(dir, 'pki/etcd'), { recursive: true });
for (const f of ['ca.crt', 'trace-client.crt', 'trace-client.key']) writeFileSync(join(dir, 'pki/etcd', f), f);
const none = { 'nats-url': '', 'nats-ca-file': '', 'nats-cert-file': '', 'nats-key-file': '' };

describe('resolveNatsTls', () => {
  it("takes the command's certificate from the state dir", () => expect(resolveNatsTls(none, dir, 'trace')).toEqual({ caPem: 'ca.crt', certPem: 'trace-client.crt', keyPem: 'trace-client.key' }));
  it('connects plain when the state dir has no certificate for the command', () => expect(resolveNatsTls(none, dir, 'admin')).toBeUndefined());
  it('offers no state dir certificate to a --nats-url given alone', () => expect(resolveNatsTls({ ...none, 'nats-url': 'nats://elsewhere:4222' }, '', 'trace')).toBeUndefined());
  it('still uses them for --nats-url with --state-dir', () => expect(resolveNatsTls({ ...none, 'nats-url': 'nats://127.0.0.1:4222' }, dir, 'trace')?.certPem).toBe('trace-client.crt'));
  it('prefers the flags', () => expect(resolveNatsTls({ ...none, 'nats-ca-file': join(dir, 'pki/etcd/ca.crt') }, dir, 'trace')).toEqual({ caPem: 'ca.crt' }));
  it('names a flag whose file is missing', () =>
    expect(() => resolveNatsTls({ ...none, 'nats-ca-file': join(dir, 'nope') }, dir, 'trace')).toThrow(`--nats-ca-file: cannot read ${join(dir, 'nope')}: ENOENT`));
});
