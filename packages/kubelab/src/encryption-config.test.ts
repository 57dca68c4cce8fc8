import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encryptionConfigYaml, ensureEncryptionConfig } from './encryption-config.js';

describe('the generated encryption config', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubelab-encconf-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('encrypts secrets with aescbc key1 and reads unencrypted ones through identity', () => {
    const key = Buffer.alloc(32, 7);
    expect(encryptionConfigYaml(key)).toBe(
      [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: EncryptionConfiguration',
        'resources:',
        '  - resources:',
        '      - secrets',
        '    providers:',
        '      - aescbc:',
        '          keys:',
        '            - name: key1',
        `              secret: ${key.toString('base64')}`,
        '      - identity: {}',
        '',
      ].join('\n'),
    );
  });

  it('is written once with a random 32-byte key, mode 0600, and kept afterwards', () => {
    const path = join(dir, 'nested', 'encryption-config.yaml');
    expect(ensureEncryptionConfig(path)).toEqual({ created: true });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const first = readFileSync(path, 'utf8');
    const secret = /secret: (\S+)/.exec(first)?.[1] ?? '';
    expect(Buffer.from(secret, 'base64')).toHaveLength(32);
    expect(first).toBe(encryptionConfigYaml(Buffer.from(secret, 'base64')));
    expect(ensureEncryptionConfig(path)).toEqual({ created: false });
    expect(readFileSync(path, 'utf8')).toBe(first);
    // A user's edit (rotation) survives too.
    writeFileSync(path, 'edited');
    expect(ensureEncryptionConfig(path)).toEqual({ created: false });
    expect(readFileSync(path, 'utf8')).toBe('edited');
    // Two fresh files get different keys.
    const other = join(dir, 'other.yaml');
    ensureEncryptionConfig(other);
    expect(readFileSync(other, 'utf8')).not.toBe(first);
  });
});
