import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertKey } from '@kubelab/pki';
import { TestPki } from '@kubelab/pki/testing';
import { getText } from './http-get.js';

describe('getText over HTTPS', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // A secure port's self-signed pair, as kube-scheduler makes it without --tls-cert-file.
    const pair = await selfSignedCertKey('localhost', { ipAddresses: ['127.0.0.1'] });
    server = createServer({ cert: pair.cert, key: pair.key }, (_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses a certificate the cluster CA did not sign', async () => {
    await expect(getText(url, { tls: { ca: (await TestPki.create()).caPem } })).rejects.toThrow(/self-signed certificate in certificate chain|unable to verify/);
  });

  it('reads it without verifying when asked to (insecure)', async () => {
    expect(await getText(url, { insecure: true })).toEqual({ status: 200, body: 'ok' });
  });
});
