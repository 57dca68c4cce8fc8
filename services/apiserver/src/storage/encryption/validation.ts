// Validation of an EncryptionConfiguration (upstream:
// apis/apiserver/validation/validation_encryption.go), with upstream's
// field paths and texts. Secrets never appear in a message ("REDACTED").

import type { FieldError } from '@kubelab/api';
import type { EncryptionConfiguration, Key, ProviderConfiguration } from './config.js';

const AES_KEY_SIZES = [16, 24, 32];
const SECRETBOX_KEY_SIZES = [32];
const PROVIDERS = ['kms', 'aesgcm', 'aescbc', 'secretbox', 'identity'] as const;

const atLeastOne = (what: string) => `at least one ${what} is required`;
const mandatory = (field: string, of: string) => `${field} is a mandatory field for a ${of}`;

/** A group/resource as schema.ParseGroupResource reads `resource.group`: `*.` is {"", "*"}. */
export function parseGroupResource(s: string): { group: string; resource: string } {
  const i = s.indexOf('.');
  return i >= 0 ? { group: s.slice(i + 1), resource: s.slice(0, i) } : { group: '', resource: s };
}

export function validateEncryptionConfiguration(c: EncryptionConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  if (c.resources.length === 0) return [{ type: 'FieldValueRequired', field: 'resources', detail: atLeastOne('resources') }];
  c.resources.forEach((conf, i) => {
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    if (conf.resources.length === 0) errs.push({ type: 'FieldValueRequired', field: r, detail: atLeastOne(r) });
    errs.push(...validateResourceOverlap(conf.resources, r), ...validateResourceNames(conf.resources, r));
    if (conf.providers.length === 0) errs.push({ type: 'FieldValueRequired', field: p, detail: atLeastOne(p) });
    conf.providers.forEach((provider, j) => {
      const path = `${p}[${j}]`;
      const single = validateSingleProvider(provider, path);
      errs.push(...single);
      if (single.length > 0) return;
      if (provider.kms) {
        errs.push({ type: 'FieldValueForbidden', field: `${path}.kms`, detail: 'KMS providers are not supported by kubelab (use aescbc, aesgcm, secretbox or identity)' });
      } else if (provider.aesgcm) errs.push(...validateKeys(provider.aesgcm.keys, `${path}.aesgcm.keys`, AES_KEY_SIZES));
      else if (provider.aescbc) errs.push(...validateKeys(provider.aescbc.keys, `${path}.aescbc.keys`, AES_KEY_SIZES));
      else if (provider.secretbox) errs.push(...validateKeys(provider.secretbox.keys, `${path}.secretbox.keys`, SECRETBOX_KEY_SIZES));
    });
  });
  return errs;
}

/** Duplicates, and `*` entries that mask others in the same list. */
function validateResourceOverlap(resources: string[], field: string): FieldError[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  let duplicate = false;
  let overlap = false;
  grs.forEach((a, i) =>
    grs.forEach((b, j) => {
      if (i === j) return;
      // As upstream: only the first equal pair counts as the duplicate; later ones may still mask (`*.*` twice).
      if (a.group === b.group && a.resource === b.resource && !duplicate) duplicate = true;
      else if ((a.group === '*' && a.resource === '*') || (a.group === b.group && (a.resource === '*' || b.resource === '*'))) overlap = true;
    }),
  );
  const errs: FieldError[] = [];
  if (duplicate) errs.push({ type: 'FieldValueInvalid', field, badValue: resources, detail: 'the same resource cannot be specified multiple times' });
  if (overlap)
    errs.push({
      type: 'FieldValueInvalid',
      field,
      badValue: resources,
      detail: "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked",
    });
  return errs;
}

function resourceNameError(res: string): string | undefined {
  if (res.toLowerCase() !== res) return 'resource name should not contain capital letters';
  if (res === '*') return "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
  if (res === 'apiserveripinfo' || res === 'serviceipallocations' || res === 'servicenodeportallocations') return 'resources which do not have REST API/s cannot be encrypted';
  const gr = parseGroupResource(res);
  if (gr.group === 'events.k8s.io') return "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file";
  if (gr.group === 'extensions') return "'extensions' group has been removed and cannot be used for encryption";
  if (gr.group === '*' && gr.resource !== '*') return 'encrypting the same resource across groups is not supported';
  return undefined;
}

function validateResourceNames(resources: string[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  resources.forEach((res, j) => {
    const detail = resourceNameError(res);
    if (detail) errs.push({ type: 'FieldValueInvalid', field: `${field}[${j}]`, badValue: res, detail });
  });
  return errs;
}

function validateSingleProvider(p: ProviderConfiguration, field: string): FieldError[] {
  const found = PROVIDERS.filter((name) => p[name] !== undefined).length;
  if (found === 0)
    return [{ type: 'FieldValueInvalid', field, badValue: JSON.stringify(p), detail: 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity' }];
  if (found > 1) return [{ type: 'FieldValueInvalid', field, badValue: JSON.stringify(p), detail: 'more than one provider specified in a single element, should split into different list elements' }];
  return [];
}

function validateKeys(keys: Key[], field: string, sizes: number[]): FieldError[] {
  if (keys.length === 0) return [{ type: 'FieldValueRequired', field, detail: atLeastOne('keys') }];
  return keys.flatMap((k, i) => validateKey(k, `${field}[${i}]`, sizes));
}

function validateKey(key: Key, field: string, sizes: number[]): FieldError[] {
  const errs: FieldError[] = [];
  if (key.name === '') errs.push({ type: 'FieldValueRequired', field: `${field}.name`, detail: mandatory('name', 'key') });
  if (key.secret === '') return [...errs, { type: 'FieldValueRequired', field: `${field}.secret`, detail: mandatory('secret', 'key') }];
  const secret = decodeStdBase64(key.secret);
  if (!secret) return [...errs, { type: 'FieldValueInvalid', field: `${field}.secret`, badValue: 'REDACTED', detail: 'secrets must be base64 encoded' }];
  if (!sizes.includes(secret.length)) {
    errs.push({
      type: 'FieldValueInvalid',
      field: `${field}.secret`,
      badValue: 'REDACTED',
      detail: `secret is not of the expected length, got ${secret.length}, expected one of [${sizes.join(' ')}]`,
    });
  }
  return errs;
}

/** Go's base64.StdEncoding.DecodeString: padded standard alphabet (CR/LF ignored), else undefined. Node's decoder accepts anything. */
export function decodeStdBase64(s: string): Buffer | undefined {
  const t = s.replace(/[\r\n]/g, '');
  if (t.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t)) return undefined;
  return Buffer.from(t, 'base64');
}
