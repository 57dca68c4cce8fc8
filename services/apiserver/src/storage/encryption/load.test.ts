import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lookupResource, type ResourceInfo } from '@kubelab/api';
import { loadEncryptionConfig, parseEncryptionConfig } from './load.js';

const k32 = () => randomBytes(32).toString('base64');
const k16 = () => randomBytes(16).toString('base64');

/** A config with one resources entry; providers as YAML flow mappings. */
function config(resources: string[], ...providers: string[]): string {
  return [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: EncryptionConfiguration',
    'resources:',
    `  - resources: ${JSON.stringify(resources)}`,
    '    providers:',
    ...providers.map((pr) => `      - ${pr}`),
  ].join('\n');
}
const aescbc = (keys: Array<[string, string]>) => `{aescbc: {keys: [${keys.map(([n, s]) => `{name: ${JSON.stringify(n)}, secret: ${JSON.stringify(s)}}`).join(', ')}]}}`;

const info = (resource: string, group = ''): ResourceInfo => {
  const i = lookupResource(group, 'v1', resource);
  if (!i) throw new Error(`no resource ${resource}.${group}`);
  return i;
};

describe('EncryptionConfiguration decoding and validation (upstream texts)', () => {
  it.each([
    [
      'a key of the wrong length',
      config(['secrets'], aescbc([['key1', 'c2VjcmV0']])),
      'resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 6, expected one of [16 24 32]',
    ],
    [
      'a secretbox key of 16 bytes',
      config(['secrets'], `{secretbox: {keys: [{name: k, secret: "${k16()}"}]}}`),
      'resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 16, expected one of [32]',
    ],
    [
      'a secret that is not base64',
      config(['secrets'], aescbc([['key1', 'not base64!']])),
      'resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded',
    ],
    ['a key without a name', config(['secrets'], aescbc([['', k32()]])), 'resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key'],
    ['a key without a secret', config(['secrets'], aescbc([['key1', '']])), 'resources[0].providers[0].aescbc.keys[0].secret: Required value: secret is a mandatory field for a key'],
    ['a provider without keys', config(['secrets'], '{aesgcm: {keys: []}}'), 'resources[0].providers[0].aesgcm.keys: Required value: at least one keys is required'],
    [
      'two providers in one element',
      config(['secrets'], `{identity: {}, aescbc: {keys: [{name: a, secret: "${k32()}"}]}}`),
      'more than one provider specified in a single element, should split into different list elements',
    ],
    ['an element without a provider', config(['secrets'], '{}'), 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity'],
    ['no providers', config(['secrets']).replace('    providers:', '    providers: []'), 'resources[0].providers: Required value: at least one resources[0].providers is required'],
    ['no resources entries', 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources: []\n', 'resources: Required value: at least one resources is required'],
    ['an empty resource list', config([], '{identity: {}}'), 'resources[0].resources: Required value: at least one resources[0].resources is required'],
    [
      'a duplicate resource',
      config(['secrets', 'secrets'], '{identity: {}}'),
      'resources[0].resources: Invalid value: []string{"secrets", "secrets"}: the same resource cannot be specified multiple times',
    ],
    ['an overlap', config(['secrets', '*.'], '{identity: {}}'), "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"],
    ['a bare *', config(['*'], '{identity: {}}'), `resources[0].resources[0]: Invalid value: "*": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources`],
    ['capitals', config(['Secrets'], '{identity: {}}'), 'resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters'],
    ['a resource across groups', config(['secrets.*'], '{identity: {}}'), 'encrypting the same resource across groups is not supported'],
    ['the extensions group', config(['*.extensions'], '{identity: {}}'), "'extensions' group has been removed and cannot be used for encryption"],
    [
      'a KMS provider',
      config(['secrets'], '{kms: {apiVersion: v2, name: vault, endpoint: "unix:///tmp/kms.sock"}}'),
      'resources[0].providers[0].kms: Forbidden: KMS providers are not supported by kubelab (use aescbc, aesgcm, secretbox or identity)',
    ],
    [
      'a typo (strict decoding)',
      config(['secrets'], `{aescbc: {keys: [{name: a, secret: "${k32()}", scret: x}]}}`),
      'strict decoding error: unknown field "resources[0].providers[0].aescbc.keys[0].scret"',
    ],
    [
      'a wrong type',
      'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: secrets\n',
      'json: cannot unmarshal string into Go struct field ResourceConfiguration.resources.resources of type []string',
    ],
    ['another kind', 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfig\nresources: []\n', 'no kind "EncryptionConfig" is registered for version "apiserver.config.k8s.io/v1"'],
    ['no kind', 'apiVersion: apiserver.config.k8s.io/v1\nresources: []\n', "Object 'Kind' is missing"],
  ])('%s', (_name, text, message) => {
    expect(() => parseEncryptionConfig(text)).toThrow(message);
  });

  it('joins several errors as upstream aggregates them', () => {
    const text = config(['Secrets'], aescbc([['', 'c2VjcmV0']]));
    expect(() => parseEncryptionConfig(text)).toThrow(
      '[resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters, resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 6, expected one of [16 24 32]]',
    );
  });

  it('accepts JSON as well as YAML', () => {
    const json = JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [{ resources: ['secrets'], providers: [{ aesgcm: { keys: [{ name: 'k', secret: k32() }] } }] }],
    });
    const t = parseEncryptionConfig(json).forResource(info('secrets'));
    expect(
      Buffer.from(t!.toStorage(Buffer.from('{}'), 'k'))
        .subarray(0, 20)
        .toString(),
    ).toBe('k8s:enc:aesgcm:v1:k:');
  });
});

describe('which resources are encrypted, and how', () => {
  it('matches exact names, then *.<group>, then *.*; others stay identity (undefined)', () => {
    const text = [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: EncryptionConfiguration',
      'resources:',
      `  - resources: [secrets]`,
      `    providers: [{secretbox: {keys: [{name: sb, secret: "${k32()}"}]}}]`,
      `  - resources: ["*.apps"]`,
      `    providers: [{aesgcm: {keys: [{name: g, secret: "${k16()}"}]}}]`,
      `  - resources: [configmaps]`,
      `    providers: [{identity: {}}]`,
    ].join('\n');
    const rt = parseEncryptionConfig(text);
    const prefixOf = (i: ResourceInfo) => {
      const t = rt.forResource(i);
      return (
        t &&
        Buffer.from(t.toStorage(Buffer.from('{}'), 'k'))
          .toString('latin1')
          .split(':')
          .slice(0, 5)
          .join(':')
      );
    };
    expect(prefixOf(info('secrets'))).toBe('k8s:enc:secretbox:v1:sb');
    expect(prefixOf(info('deployments', 'apps'))).toBe('k8s:enc:aesgcm:v1:g');
    expect(prefixOf(info('configmaps'))).toBe('{}');
    expect(rt.forResource(info('pods'))).toBeUndefined();

    const all = parseEncryptionConfig(config(['*.*'], aescbc([['key1', k32()]])));
    expect(all.forResource(info('pods'))).toBeDefined();
    expect(all.forResource(info('deployments', 'apps'))).toBe(all.forResource(info('pods')));
  });

  it('rotation: the first key writes, the old key still reads (stale), identity reads unencrypted (stale)', () => {
    const old = k32();
    const before = parseEncryptionConfig(config(['secrets'], aescbc([['key1', old]]), '{identity: {}}')).forResource(info('secrets'))!;
    const after = parseEncryptionConfig(
      config(
        ['secrets'],
        aescbc([
          ['key2', k32()],
          ['key1', old],
        ]),
        '{identity: {}}',
      ),
    ).forResource(info('secrets'))!;
    const plain = Buffer.from('{"kind":"Secret"}');
    const written = before.toStorage(plain, 'k');
    expect(Buffer.from(written).subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');
    expect(Buffer.from(before.fromStorage(written, 'k').data)).toEqual(plain);
    expect(before.fromStorage(written, 'k').stale).toBe(false);
    const read = after.fromStorage(written, 'k');
    expect(Buffer.from(read.data)).toEqual(plain);
    expect(read.stale).toBe(true);
    const rewritten = after.toStorage(read.data, 'k');
    expect(Buffer.from(rewritten).subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key2:');
    expect(after.fromStorage(rewritten, 'k').stale).toBe(false);
    expect(after.fromStorage(plain, 'k')).toEqual({ data: plain, stale: true });

    const withoutOld = parseEncryptionConfig(config(['secrets'], aescbc([['key2', k32()]]))).forResource(info('secrets'))!;
    expect(() => withoutOld.fromStorage(written, 'k')).toThrow('no matching key was found for the provided AES transformer');
    expect(() => withoutOld.fromStorage(plain, 'k')).toThrow('no matching prefix found');
  });
});

describe('loadEncryptionConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-enc-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prefixes every failure with "error while parsing file"', () => {
    const missing = join(dir, 'missing.yaml');
    expect(() => loadEncryptionConfig(missing)).toThrow(`error while parsing file: error opening encryption provider configuration file "${missing}": ENOENT`);
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, '');
    expect(() => loadEncryptionConfig(empty)).toThrow(`error while parsing file: encryption provider configuration file "${empty}" is empty`);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, config(['secrets'], aescbc([['key1', 'c2VjcmV0']])));
    expect(() => loadEncryptionConfig(bad)).toThrow('error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length');
  });

  it('loads a valid file', () => {
    const good = join(dir, 'good.yaml');
    writeFileSync(good, config(['secrets'], aescbc([['key1', k32()]])));
    expect(loadEncryptionConfig(good).forResource(info('secrets'))).toBeDefined();
  });
});
