// --encryption-provider-config → one transformer per group/resource
// (upstream: server/options/encryptionconfig/config.go, LoadEncryptionConfig).
// Provider prefixes `k8s:enc:<provider>:v1:`, then `<keyname>:` per key; the
// first provider (and its first key) writes, all read.

import { readFileSync } from 'node:fs';
import { fieldErrorMessage, type ResourceInfo } from '@kubelab/api';
import { cbcTransformer, gcmTransformer } from './aes.js';
import { decodeEncryptionConfiguration, type EncryptionConfiguration, type Key, type ProviderConfiguration } from './config.js';
import { secretboxTransformer } from './secretbox.js';
import { identity, PrefixTransformers, type PrefixTransformer, type Transformer } from './transformer.js';
import { decodeStdBase64, parseGroupResource, validateEncryptionConfiguration } from './validation.js';

/** An --encryption-provider-config that cannot be used: the apiserver does not start. */
export class EncryptionConfigError extends Error {
  override name = 'EncryptionConfigError';
}

const PREFIX = { aescbc: 'k8s:enc:aescbc:v1:', aesgcm: 'k8s:enc:aesgcm:v1:', secretbox: 'k8s:enc:secretbox:v1:' } as const;

/** Which transformer stores each resource; resources the file does not name are stored as is. */
export class ResourceTransformers {
  private readonly resolved = new Map<ResourceInfo, Transformer | undefined>();

  /** `byGroupResource`: keyed `group/resource`, `*` standing for any (upstream's transformer overrides). */
  constructor(private readonly byGroupResource: ReadonlyMap<string, Transformer>) {}

  /**
   * The transformer of one resource: an exact entry, else `*.<group>`, else
   * `*.*` (upstream: transformerFromOverrides). undefined: the identity, i.e.
   * stored bytes are used as they are (the zero-copy path).
   */
  forResource(info: ResourceInfo): Transformer | undefined {
    if (this.resolved.has(info)) return this.resolved.get(info);
    const m = this.byGroupResource;
    const t = m.get(`${info.group}/${info.resource}`) ?? m.get(`${info.group}/*`) ?? m.get('*/*');
    this.resolved.set(info, t);
    return t;
  }

  /** Whether any resource is configured. */
  get size(): number {
    return this.byGroupResource.size;
  }
}

/** Builds the transformers of a valid configuration (upstream: getTransformerOverrides). */
export function transformersFor(config: EncryptionConfiguration): ResourceTransformers {
  const lists = new Map<string, PrefixTransformer[]>();
  for (const rc of config.resources) {
    const providers = rc.providers.map(providerTransformer);
    for (const r of rc.resources) {
      const gr = parseGroupResource(r);
      const key = `${gr.group}/${gr.resource}`;
      // A resource named in several entries reads with all of them, in file order.
      lists.set(key, [...(lists.get(key) ?? []), ...providers]);
    }
  }
  const out = new Map<string, Transformer>();
  for (const [gr, list] of lists) out.set(gr, new PrefixTransformers(list, 'no matching prefix found'));
  return new ResourceTransformers(out);
}

function providerTransformer(p: ProviderConfiguration): PrefixTransformer {
  if (p.aesgcm) return keyedTransformer(PREFIX.aesgcm, p.aesgcm.keys, gcmTransformer, 'no matching key was found for the provided AES transformer');
  if (p.aescbc) return keyedTransformer(PREFIX.aescbc, p.aescbc.keys, cbcTransformer, 'no matching key was found for the provided AES transformer');
  if (p.secretbox) return keyedTransformer(PREFIX.secretbox, p.secretbox.keys, secretboxTransformer, 'no matching key was found for the provided Secretbox transformer');
  if (p.identity) return { prefix: new Uint8Array(0), transformer: identity };
  throw new EncryptionConfigError('provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity');
}

/** A provider with several keys: `<prefix><keyname>:<ciphertext>`, the first key writing. */
function keyedTransformer(prefix: string, keys: Key[], cipher: (key: Uint8Array) => Transformer, noMatch: string): PrefixTransformer {
  const byKey = keys.map((k) => {
    const secret = decodeStdBase64(k.secret);
    if (!secret) throw new EncryptionConfigError(`could not obtain secret for named key ${k.name}: illegal base64 data`);
    return { prefix: Buffer.from(`${k.name}:`), transformer: cipher(secret) };
  });
  return { prefix: Buffer.from(prefix), transformer: new PrefixTransformers(byKey, noMatch) };
}

/** Parses and validates a configuration file's text; throws with the messages upstream prints. */
export function parseEncryptionConfig(text: string): ResourceTransformers {
  const config = decodeEncryptionConfiguration(text);
  const errs = validateEncryptionConfiguration(config);
  if (errs.length > 0) {
    const msgs = [...new Set(errs.map((e) => `${e.field}: ${fieldErrorMessage(e)}`))];
    throw new Error(msgs.length === 1 ? msgs[0] : `[${msgs.join(', ')}]`);
  }
  return transformersFor(config);
}

/** Reads --encryption-provider-config (upstream: LoadEncryptionConfig); every failure is "error while parsing file: ...". */
export function loadEncryptionConfig(path: string): ResourceTransformers {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new EncryptionConfigError(`error while parsing file: error opening encryption provider configuration file "${path}": ${(err as Error).message}`);
  }
  if (text.length === 0) throw new EncryptionConfigError(`error while parsing file: encryption provider configuration file "${path}" is empty`);
  try {
    return parseEncryptionConfig(text);
  } catch (err) {
    throw new EncryptionConfigError(`error while parsing file: ${(err as Error).message}`, { cause: err });
  }
}
