// The EncryptionConfiguration file of --encryption-provider-config
// (upstream: apiserver.config.k8s.io/v1 EncryptionConfiguration, decoded
// strictly as the apiserver's codec does). YAML or JSON: YAML parses both.

import { parse as parseYaml } from 'yaml';

export const ENCRYPTION_API_VERSION = 'apiserver.config.k8s.io/v1';
export const ENCRYPTION_KIND = 'EncryptionConfiguration';

export interface Key {
  name: string;
  /** Base64 of the key bytes. */
  secret: string;
}

export interface KeysConfiguration {
  keys: Key[];
}

/** One element of `providers`: exactly one of these is set. */
export interface ProviderConfiguration {
  aescbc?: KeysConfiguration;
  aesgcm?: KeysConfiguration;
  secretbox?: KeysConfiguration;
  identity?: Record<string, never>;
  /** Accepted by the decoder only to be refused with a clear error: kubelab has no KMS plugins. */
  kms?: Record<string, unknown>;
}

export interface ResourceConfiguration {
  /** `secrets`, `deployments.apps`, `*.apps`, `*.` (core group), `*.*`. */
  resources: string[];
  providers: ProviderConfiguration[];
}

export interface EncryptionConfiguration {
  apiVersion: string;
  kind: string;
  resources: ResourceConfiguration[];
}

/** A file that does not decode: the message is the decoder's. */
export class ConfigDecodeError extends Error {
  override name = 'ConfigDecodeError';
}

// The schema the strict decoder walks: Go struct names for its messages.
type Shape = { struct: string; fields: Record<string, Kind> };
type Kind = 'string' | { list: Kind } | Shape | 'any-object';

const KEY: Shape = { struct: 'Key', fields: { name: 'string', secret: 'string' } };
const KEYS = (struct: string): Shape => ({ struct, fields: { keys: { list: KEY } } });
const PROVIDER: Shape = {
  struct: 'ProviderConfiguration',
  fields: {
    aesgcm: KEYS('AESConfiguration'),
    aescbc: KEYS('AESConfiguration'),
    secretbox: KEYS('SecretboxConfiguration'),
    identity: { struct: 'IdentityConfiguration', fields: {} },
    kms: 'any-object',
  },
};
const RESOURCE: Shape = { struct: 'ResourceConfiguration', fields: { resources: { list: 'string' }, providers: { list: PROVIDER } } };
const ROOT: Shape = { struct: 'EncryptionConfiguration', fields: { apiVersion: 'string', kind: 'string', resources: { list: RESOURCE } } };

function goType(k: Kind): string {
  if (k === 'string') return 'string';
  if (k === 'any-object') return 'v1.KMSConfiguration';
  if ('list' in k) return `[]${goType(k.list)}`;
  return `v1.${k.struct}`;
}

function jsonType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/**
 * Checks `v` against the schema: a wrong type fails at once (encoding/json's
 * message), unknown fields are collected (the strict decoder's message).
 * null is a field's zero value, as Go decodes it.
 */
function walk(v: unknown, k: Kind, path: string, struct: string, unknown: string[]): void {
  if (v === null || v === undefined) return;
  const typeError = () => new ConfigDecodeError(`json: cannot unmarshal ${jsonType(v)} into Go struct field ${struct}.${path.replace(/\[\d+\]/g, '')} of type ${goType(k)}`);
  if (k === 'string') {
    if (typeof v !== 'string') throw typeError();
    return;
  }
  if (k === 'any-object') {
    if (typeof v !== 'object' || Array.isArray(v)) throw typeError();
    return;
  }
  if ('list' in k) {
    if (!Array.isArray(v)) throw typeError();
    v.forEach((x, i) => walk(x, k.list, `${path}[${i}]`, struct, unknown));
    return;
  }
  if (typeof v !== 'object' || Array.isArray(v)) throw typeError();
  for (const [name, child] of Object.entries(v as Record<string, unknown>)) {
    const at = path ? `${path}.${name}` : name;
    const fk = k.fields[name];
    if (fk === undefined) unknown.push(`unknown field ${JSON.stringify(at)}`);
    else walk(child, fk, at, k.struct, unknown);
  }
}

/** Decodes the file's text (YAML or JSON) into an EncryptionConfiguration; validation is separate. */
export function decodeEncryptionConfiguration(text: string): EncryptionConfiguration {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new ConfigDecodeError(`error converting YAML to JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ConfigDecodeError(`couldn't get version/kind; json parse error: the file is not a JSON or YAML object`);
  const { apiVersion, kind } = doc as { apiVersion?: unknown; kind?: unknown };
  if (typeof kind !== 'string' || kind === '') throw new ConfigDecodeError("Object 'Kind' is missing in the encryption provider configuration");
  if (apiVersion !== ENCRYPTION_API_VERSION || kind !== ENCRYPTION_KIND) {
    throw new ConfigDecodeError(`no kind "${kind}" is registered for version "${String(apiVersion ?? '')}" (want apiVersion: ${ENCRYPTION_API_VERSION}, kind: ${ENCRYPTION_KIND})`);
  }
  const unknown: string[] = [];
  walk(doc, ROOT, '', ROOT.struct, unknown);
  if (unknown.length > 0) throw new ConfigDecodeError(`strict decoding error: ${unknown.join(', ')}`);
  return normalize(doc as Partial<EncryptionConfiguration>);
}

/** Go's zero values for what the file left out (null lists, absent keys). */
function normalize(doc: Partial<EncryptionConfiguration>): EncryptionConfiguration {
  return {
    apiVersion: doc.apiVersion!,
    kind: doc.kind!,
    resources: (doc.resources ?? []).map((r) => ({
      resources: (r?.resources ?? []).map((s) => s ?? ''),
      providers: (r?.providers ?? []).map((p) => {
        const out: ProviderConfiguration = {};
        for (const name of ['aesgcm', 'aescbc', 'secretbox'] as const) {
          const c = p?.[name];
          if (c) out[name] = { keys: (c.keys ?? []).map((k) => ({ name: k?.name ?? '', secret: k?.secret ?? '' })) };
        }
        if (p?.identity) out.identity = {};
        if (p?.kms) out.kms = p.kms;
        return out;
      }),
    })),
  };
}
