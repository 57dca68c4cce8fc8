import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { natsAuthOptions, readNatsTls } from './client.js';
import { APISERVER_NATS_IDENTITY, containerdNatsIdentity } from './identities.js';

const dir = mkdtempSync(join(tmpdir(), 'nats-client-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};
const ca = file('ca.crt', 'CA');
const crt = file('c.crt', 'CERT');
const key = file('c.key', 'KEY');
const ETCD = { caFile: 'etcd-cafile', certFile: 'etcd-certfile', keyFile: 'etcd-keyfile' };

describe('readNatsTls', () => {
  it('is plain NATS without files', () => expect(readNatsTls({ caFile: '', certFile: '', keyFile: '' })).toBeUndefined());
  it('reads the three files', () => expect(readNatsTls({ caFile: ca, certFile: crt, keyFile: key })).toEqual({ caPem: 'CA', certPem: 'CERT', keyPem: 'KEY' }));
  it.each([
    ['a certificate without its key', { caFile: ca, certFile: crt, keyFile: '' }, '--etcd-certfile and --etcd-keyfile must be given together'],
    ['a certificate without the CA', { caFile: '', certFile: crt, keyFile: key }, "--etcd-certfile needs --etcd-cafile, the CA that signed the NATS server's certificate"],
    ['a missing file', { caFile: join(dir, 'nope'), certFile: '', keyFile: '' }, `--etcd-cafile: cannot read ${join(dir, 'nope')}: ENOENT`],
  ])('refuses %s, naming the flags', (_name, files, message) => expect(() => readNatsTls(files, ETCD)).toThrow(message));
});

describe('natsAuthOptions', () => {
  it('gives the apiserver its certificate and inbox prefix', () =>
    expect(natsAuthOptions(APISERVER_NATS_IDENTITY, { caPem: 'CA', certPem: 'CERT', keyPem: 'KEY' })).toEqual({ tls: { ca: 'CA', cert: 'CERT', key: 'KEY' }, inboxPrefix: '_INBOX.kube-apiserver' }));
  it('adds nothing for a publish-only client on plain NATS', () => expect(natsAuthOptions(containerdNatsIdentity('node-1'), undefined)).toEqual({}));
});
