// The kubelet's client certificate on disk (upstream client-go
// util/certificate FileStore, pairNamePrefix "kubelet-client"): each issued
// pair is one dated file, `<dir>/kubelet-client-2026-12-01-18-30-00.pem`
// (certificate then key), and `kubelet-client-current.pem` is a symlink to the
// newest, swapped atomically; a kubeconfig points at the symlink.

import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { basename, join } from 'node:path';

export interface StoredPair {
  certPem: string;
  keyPem: string;
  notBefore: Date;
  notAfter: Date;
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----\r?\n?/g;

/** Splits a PEM file into its certificates and its private key (the store keeps both in one file). */
export function splitPem(text: string): { certPem: string; keyPem: string } {
  let certPem = '';
  let keyPem = '';
  for (const m of text.matchAll(PEM_BLOCK)) {
    const block = m[0].endsWith('\n') ? m[0] : `${m[0]}\n`;
    if (m[1] === 'CERTIFICATE') certPem += block;
    else if (m[1]!.endsWith('PRIVATE KEY')) keyPem ||= block;
  }
  return { certPem, keyPem };
}

/** Go's "2006-01-02-15-04-05" in UTC, the dated file's suffix. */
export function pairTimestamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/[T:]/g, '-');
}

export class CertificateFileStore {
  constructor(
    readonly dir: string,
    readonly prefix = 'kubelet-client',
  ) {}

  /** The path kubeconfigs name: `<dir>/<prefix>-current.pem`. */
  get currentPath(): string {
    return join(this.dir, `${this.prefix}-current.pem`);
  }

  /** The pair the symlink points at, or undefined when there is none or it does not parse. */
  current(): StoredPair | undefined {
    if (!existsSync(this.currentPath)) return undefined;
    try {
      const { certPem, keyPem } = splitPem(readFileSync(this.currentPath, 'utf8'));
      if (!certPem || !keyPem) return undefined;
      const x = new X509Certificate(certPem);
      return { certPem, keyPem, notBefore: new Date(x.validFrom), notAfter: new Date(x.validTo) };
    } catch {
      return undefined;
    }
  }

  /** Writes a new dated pair and points the symlink at it (a new link renamed over the old one). */
  update(certPem: string, keyPem: string, now = new Date()): string {
    mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    const file = join(this.dir, `${this.prefix}-${pairTimestamp(now)}.pem`);
    writeFileSync(file, `${certPem.trimEnd()}\n${keyPem.trimEnd()}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
    const tmp = `${this.currentPath}.tmp`;
    rmSync(tmp, { force: true });
    symlinkSync(basename(file), tmp);
    renameSync(tmp, this.currentPath);
    return file;
  }
}
