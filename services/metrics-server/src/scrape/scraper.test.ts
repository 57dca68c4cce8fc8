import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { selfSignedCertKey } from '@kubelab/pki';
import { afterEach, describe, expect, it } from 'vitest';
import { kubeletClient } from './scraper.js';

describe('the kubelet client', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it('scrapes a kubelet by address over one kept-alive TLS connection, verified and without an IP as SNI', async () => {
    const pair = await selfSignedCertKey('127.0.0.1', { ipAddresses: ['127.0.0.1'] });
    let handshakes = 0;
    const servernames: unknown[] = [];
    server = createServer({ cert: pair.cert, key: pair.key }, (_req, res) => res.end('# metrics\n'));
    server.keepAliveTimeout = 90_000;
    server.on('secureConnection', (s: { servername?: unknown }) => {
      handshakes++;
      servernames.push(s.servername);
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }) => warnings.push(w.code ?? w.message);
    process.on('warning', onWarning);
    const client = kubeletClient({ addressTypes: ['InternalIP'], useNodeStatusPort: false, kubeletPort: port, caPem: pair.cert, insecure: false, timeoutMs: 5_000 });
    try {
      for (let i = 0; i < 3; i++) expect(await client.fetch({ host: '127.0.0.1', port })).toBe('# metrics\n');
    } finally {
      client.close();
      process.off('warning', onWarning);
    }
    expect(handshakes).toBe(1);
    expect(servernames).toEqual([false]);
    expect(warnings).not.toContain('DEP0123');
  });

  it('refuses a kubelet whose certificate the CA did not sign', async () => {
    const pair = await selfSignedCertKey('127.0.0.1', { ipAddresses: ['127.0.0.1'] });
    const other = await selfSignedCertKey('127.0.0.1', { ipAddresses: ['127.0.0.1'] });
    server = createServer({ cert: pair.cert, key: pair.key }, (_req, res) => res.end('# metrics\n'));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as AddressInfo).port;
    const client = kubeletClient({ addressTypes: ['InternalIP'], useNodeStatusPort: false, kubeletPort: port, caPem: other.cert, insecure: false, timeoutMs: 5_000 });
    try {
      await expect(client.fetch({ host: '127.0.0.1', port })).rejects.toThrow(/self[- ]signed certificate|unable to verify/);
    } finally {
      client.close();
    }
  });
});
