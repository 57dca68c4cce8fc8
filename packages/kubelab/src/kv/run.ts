// `kubelab kv`: the raw bytes of the object store (NATS KV in etcd's role),
// as `etcdctl get` shows etcd's: the key line, then the stored value; what
// the apiserver wrote, before any decryption (`k8s:enc:aescbc:v1:key1:...`
// for an encrypted Secret). `kv ls [prefix]` lists keys.

import type { NatsConnection } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { FlagError, FlagSet } from '@kubelab/component-base';
import { ADMIN_NATS_IDENTITY, type NatsClientTls } from '@kubelab/nats';
import { connectNats, NOT_RUNNING, resolveNatsTls, resolveNatsUrl } from '../nats.js';
import { hexdump } from './hexdump.js';

/** The apiserver's --kv-bucket default. */
export const DEFAULT_BUCKET = 'kubelab';

export type KvArgs = { natsUrl: string; natsTls?: NatsClientTls; bucket: string } & ({ op: 'get'; key: string; hex: boolean; printValueOnly: boolean } | { op: 'ls'; prefix: string });

export function kvFlags() {
  return new FlagSet('pnpm kubelab kv get KEY | kv ls [PREFIX]')
    .bool('hex', false, 'print the output as `hexdump -C` shows it (what `etcdctl get KEY | hexdump -C` prints)')
    .bool('print-value-only', false, "only the value, not the key line (etcdctl's flag)")
    .string('bucket', DEFAULT_BUCKET, "the KV bucket holding every object (the apiserver's --kv-bucket)")
    .string('state-dir', '', 'the local runner state dir (default .kubelab/local); its cluster.json, when present, names the NATS URL')
    .string('nats-url', '', "NATS to read from (default: the local runner's, else nats://127.0.0.1:4222)")
    .string('nats-ca-file', '', "CA that signed the NATS server's certificate (default: the state dir's pki/etcd/ca.crt)")
    .string('nats-cert-file', '', "client certificate for NATS (default: the state dir's pki/etcd/admin-client.crt, issued by `kubelab up`)")
    .string('nats-key-file', '', 'private key of --nats-cert-file');
}

const USAGE = 'usage: pnpm kubelab kv get KEY [--hex] [--print-value-only] | pnpm kubelab kv ls [PREFIX]';

export function parseKvArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): KvArgs {
  const { values, rest } = kvFlags().parse(argv, env);
  const [op, ...operands] = rest;
  const tls = resolveNatsTls(values, values['state-dir'], 'admin');
  const conn = { natsUrl: resolveNatsUrl(values['nats-url'], values['state-dir']), ...(tls ? { natsTls: tls } : {}), bucket: values.bucket };
  if (op === 'get') {
    if (operands.length !== 1) throw new FlagError(`kv get takes one key, e.g. /registry/secrets/default/db-password; ${USAGE}`);
    return { ...conn, op, key: operands[0]!, hex: values.hex, printValueOnly: values['print-value-only'] };
  }
  if (op === 'ls') {
    if (operands.length > 1) throw new FlagError(`kv ls takes at most one prefix; ${USAGE}`);
    return { ...conn, op, prefix: operands[0] ?? '' };
  }
  throw new FlagError(op === undefined ? USAGE : `unknown kv command "${op}"; ${USAGE}`);
}

/** What `etcdctl get` prints for one key: `KEY\nVALUE\n` (the value's bytes as stored), or hexdump -C of that. */
export function formatGet(key: string, value: Uint8Array, opts: { hex: boolean; printValueOnly: boolean }): Buffer {
  const out = Buffer.concat([opts.printValueOnly ? Buffer.alloc(0) : Buffer.from(`${key}\n`), value, Buffer.from('\n')]);
  return opts.hex ? Buffer.from(hexdump(out)) : out;
}

export interface KvIo {
  out(data: Uint8Array | string): void;
  err(line: string): void;
}

export async function runKv(args: KvArgs, io: KvIo): Promise<number> {
  let nc: NatsConnection;
  try {
    nc = await connectNats({ url: args.natsUrl, ...(args.natsTls ? { tls: args.natsTls } : {}) }, ADMIN_NATS_IDENTITY, 'kubelab-kv', { maxReconnectAttempts: 0 });
  } catch (err) {
    io.err(`kubelab kv: cannot connect to NATS at ${args.natsUrl}: ${(err as Error).message}; ${NOT_RUNNING}`);
    return 1;
  }
  try {
    let kv;
    try {
      kv = await new Kvm(jetstream(nc, { timeout: 5000 })).open(args.bucket);
      await kv.status(); // open() does not look; this does
    } catch (err) {
      io.err(`kubelab kv: no KV bucket "${args.bucket}" on ${args.natsUrl}: ${(err as Error).message} (--bucket names another)`);
      return 1;
    }
    if (args.op === 'get') {
      const e = await kv.get(args.key);
      // As etcdctl: a key that does not exist (or was deleted) prints nothing.
      if (e && e.operation === 'PUT') io.out(formatGet(args.key, e.value, args));
      return 0;
    }
    const keys: string[] = [];
    for await (const k of await kv.keys()) if (k.startsWith(args.prefix)) keys.push(k);
    keys.sort();
    if (keys.length > 0) io.out(keys.join('\n') + '\n');
    return 0;
  } catch (err) {
    io.err(`kubelab kv: ${(err as Error).message}`);
    return 1;
  } finally {
    await nc.close().catch(() => {});
  }
}

/** The `case 'kv':` of main.ts. */
export async function kvCommand(argv: string[]): Promise<number> {
  let args: KvArgs;
  try {
    args = parseKvArgs(argv);
  } catch (err) {
    if (err instanceof FlagError) {
      const help = err.message === kvFlags().usage();
      process.stderr.write(help ? `${err.message}\n` : `kubelab kv: ${err.message}\n`);
      return help ? 0 : 2;
    }
    throw err;
  }
  return runKv(args, { out: (d) => process.stdout.write(d), err: (line) => process.stderr.write(line + '\n') });
}
