// Secrets at rest against a real nats-server (upstream:
// test/integration/controlplane/transformation): what NATS holds is the
// encrypted envelope, what the API returns is the object; key rotation and
// encrypting existing data as upstream's documentation does them.

import { createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireTool } from '@kubelab/testing';
import type { KubeObject } from '@kubelab/api';
import { startApiserver } from '../src/server.js';
import { api, gvr, startTestCluster, type TestCluster } from '../src/testing/index.js';

const SECRETS = gvr('secrets');
const CMS = gvr('configmaps');
type Secret = KubeObject & { data?: Record<string, string> };

const PASSWORD = 'correct-horse-battery-staple';
const b64 = (s: string) => Buffer.from(s).toString('base64');

/** An EncryptionConfiguration for secrets with these providers (YAML, as a user writes it). */
function configYaml(providers: string[]): string {
  return ['apiVersion: apiserver.config.k8s.io/v1', 'kind: EncryptionConfiguration', 'resources:', '  - resources: [secrets]', '    providers:', ...providers.map((p) => `      - ${p}`), ''].join(
    '\n',
  );
}
const aescbc = (...keys: Array<[string, Buffer]>) => `aescbc: {keys: [${keys.map(([n, k]) => `{name: ${n}, secret: ${k.toString('base64')}}`).join(', ')}]}`;

/** AES-CBC decryption done here, independently of the apiserver: the stored layout is prefix ‖ IV ‖ ciphertext. */
function decryptCbc(raw: Buffer, prefix: string, key: Buffer): string {
  const body = raw.subarray(prefix.length);
  const d = createDecipheriv('aes-256-cbc', key, body.subarray(0, 16));
  return Buffer.concat([d.update(body.subarray(16)), d.final()]).toString();
}

describe.runIf(requireTool('nats-server'))('Secrets encrypted at rest', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-encryption-'));
  const configPath = join(dir, 'encryption-config.yaml');
  const key1 = randomBytes(32);
  const key2 = randomBytes(32);
  let c: TestCluster;
  let k: ReturnType<typeof api>;

  /** The bytes NATS holds for a key (what `kubelab kv get` prints). */
  const raw = async (key: string): Promise<Buffer> => {
    const e = await c.apiserver.storage.kv.get(key);
    if (!e) throw new Error(`no value at ${key}`);
    return Buffer.from(e.value);
  };
  const restartWith = async (providers: string[]) => {
    writeFileSync(configPath, configYaml(providers));
    await c.restartApiserver();
    k = api(c.client());
  };

  beforeAll(async () => {
    writeFileSync(configPath, configYaml([aescbc(['key1', key1]), 'identity: {}']));
    c = await startTestCluster({ encryptionProviderConfig: configPath });
    k = api(c.client());
  });
  afterAll(async () => {
    await c?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a Secret as k8s:enc:aescbc:v1:key1: and no plaintext, while GET, LIST and updates see the object', async () => {
    const created = await k.create<Secret>(SECRETS, 'default', { metadata: { name: 'db' }, data: { password: b64(PASSWORD) } });
    const stored = await raw('/registry/secrets/default/db');
    expect(stored.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');
    for (const plain of [PASSWORD, b64(PASSWORD), '"kind":"Secret"', 'metadata']) expect(stored.includes(plain)).toBe(false);
    // The envelope is upstream's: decrypted here with node:crypto and the configured key.
    const json = JSON.parse(decryptCbc(stored, 'k8s:enc:aescbc:v1:key1:', key1)) as Secret;
    expect(json).toMatchObject({ kind: 'Secret', metadata: { name: 'db', uid: created.metadata.uid }, data: { password: b64(PASSWORD) } });
    expect(json.metadata.resourceVersion).toBeUndefined();

    expect(await k.get<Secret>(SECRETS, 'default', 'db')).toEqual(created);
    expect((await k.list<Secret>(SECRETS, 'default')).items).toEqual([created]);
    const changed: Secret = { ...created, data: { password: b64('new-password') } };
    const updated = await k.update<Secret>(SECRETS, 'default', changed);
    expect(updated.data).toEqual({ password: b64('new-password') });
    const again = await raw('/registry/secrets/default/db');
    expect(again.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');
    expect(again.includes(b64('new-password'))).toBe(false);
  });

  it('keeps a ConfigMap plain when only secrets are configured', async () => {
    await k.create(CMS, 'default', { metadata: { name: 'settings' }, data: { mode: 'plain-text-visible' } });
    const stored = await raw('/registry/configmaps/default/settings');
    expect(stored.toString()).toMatch(/^\{"apiVersion":"v1","kind":"ConfigMap","metadata":\{.*"data":\{"mode":"plain-text-visible"\}\}$/);
  });

  it('rotates keys as upstream documents: add the new key first, restart, rewrite every Secret', async () => {
    await restartWith([aescbc(['key2', key2], ['key1', key1]), 'identity: {}']);
    const before = await k.get<Secret>(SECRETS, 'default', 'db');
    expect(before.data).toEqual({ password: b64('new-password') });
    expect((await raw('/registry/secrets/default/db')).subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key1:');

    // `kubectl get secrets -A -o json | kubectl replace -f -`: an unchanged replace still writes, with key2.
    const replaced = await k.update<Secret>(SECRETS, 'default', before);
    expect(Number(replaced.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
    const stored = await raw('/registry/secrets/default/db');
    expect(stored.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key2:');
    expect(JSON.parse(decryptCbc(stored, 'k8s:enc:aescbc:v1:key2:', key2))).toMatchObject({ data: { password: b64('new-password') } });
    // Once current, an unchanged replace is the usual no-op.
    const noop = await k.update<Secret>(SECRETS, 'default', replaced);
    expect(noop.metadata.resourceVersion).toBe(replaced.metadata.resourceVersion);

    // key1 can go once nothing uses it.
    await restartWith([aescbc(['key2', key2])]);
    expect((await k.get<Secret>(SECRETS, 'default', 'db')).data).toEqual({ password: b64('new-password') });
  });

  it('encrypts Secrets written before encryption was on once they are rewritten', async () => {
    // Without a key, db (encrypted) could not be read: the apiserver would log it as undecodable.
    await k.delete(SECRETS, 'default', 'db');
    await restartWith(['identity: {}']);
    await k.create(SECRETS, 'default', { metadata: { name: 'legacy' }, data: { token: b64('legacy-token') } });
    expect((await raw('/registry/secrets/default/legacy')).includes(b64('legacy-token'))).toBe(true);

    await restartWith([aescbc(['key2', key2]), 'identity: {}']);
    const legacy = await k.get<Secret>(SECRETS, 'default', 'legacy');
    expect(legacy.data).toEqual({ token: b64('legacy-token') });
    await k.update(SECRETS, 'default', legacy);
    const stored = await raw('/registry/secrets/default/legacy');
    expect(stored.subarray(0, 23).toString()).toBe('k8s:enc:aescbc:v1:key2:');
    expect(stored.includes(b64('legacy-token'))).toBe(false);
  });
});

describe('--encryption-provider-config that cannot be used', () => {
  it('fails the apiserver start with upstream message before it touches NATS', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubelab-encryption-bad-'));
    try {
      const path = join(dir, 'bad.yaml');
      writeFileSync(path, configYaml(['aescbc: {keys: [{name: key1, secret: c2hvcnQ=}]}']));
      await expect(startApiserver({ natsUrl: 'nats://127.0.0.1:1', encryptionProviderConfig: path })).rejects.toThrow(
        'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 5, expected one of [16 24 32]',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
