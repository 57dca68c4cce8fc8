// What a NATS client adds to its connection options to reach a secured NATS:
// its certificate (read once from the files its flags name, as the apiserver
// reads --etcd-certfile) and its inbox prefix.

import { readFileSync } from 'node:fs';
import { FlagError } from '@kubelab/component-base';
import type { NatsIdentity } from './identities.js';

/** A client's TLS material as PEM. */
export interface NatsClientTls {
  caPem: string;
  certPem?: string;
  keyPem?: string;
}

/** The files, as flags name them; '' is unset. */
export interface NatsTlsFiles {
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** The flag names of a binary's three files (the apiserver's --etcd-cafile, the others' --nats-ca-file). */
export interface NatsTlsFlagNames {
  caFile: string;
  certFile: string;
  keyFile: string;
}

export const NATS_TLS_FLAGS: NatsTlsFlagNames = { caFile: 'nats-ca-file', certFile: 'nats-cert-file', keyFile: 'nats-key-file' };

/**
 * Reads the files; undefined when none is set (plain NATS). A client
 * certificate needs its key, and both need the CA that verifies the server.
 */
export function readNatsTls(files: NatsTlsFiles, flags: NatsTlsFlagNames = NATS_TLS_FLAGS): NatsClientTls | undefined {
  if (!files.caFile && !files.certFile && !files.keyFile) return undefined;
  if (!files.certFile !== !files.keyFile) throw new FlagError(`--${flags.certFile} and --${flags.keyFile} must be given together`);
  if (!files.caFile) throw new FlagError(`--${flags.certFile} needs --${flags.caFile}, the CA that signed the NATS server's certificate`);
  const read = (key: keyof NatsTlsFiles) => {
    try {
      return readFileSync(files[key], 'utf8');
    } catch (e) {
      throw new FlagError(`--${flags[key]}: cannot read ${files[key]}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  return { caPem: read('caFile'), ...(files.certFile ? { certPem: read('certFile'), keyPem: read('keyFile') } : {}) };
}

/** nats.js connection options for `identity` (a subset of ConnectionOptions: `tls` and `inboxPrefix`). */
export function natsAuthOptions(identity: NatsIdentity, tls: NatsClientTls | undefined): { tls?: { ca: string; cert?: string; key?: string }; inboxPrefix?: string } {
  return {
    ...(tls ? { tls: { ca: tls.caPem, ...(tls.certPem && tls.keyPem ? { cert: tls.certPem, key: tls.keyPem } : {}) } } : {}),
    ...(identity.inboxPrefix ? { inboxPrefix: identity.inboxPrefix } : {}),
  };
}
