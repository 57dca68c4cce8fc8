// The apiserver's --encryption-provider-config as a cluster set up "secure by
// default" gets it (Kubernetes the Hard Way's encryption-config.yaml, in
// today's apiserver.config.k8s.io/v1 form): Secrets encrypted with aescbc
// under a random 32-byte key named key1; identity second, so Secrets stored
// before encryption was on stay readable until rewritten.

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Its name in the state dir (`kubelab up`) or under /etc/kubernetes (compose). */
export const ENCRYPTION_CONFIG_FILE = 'encryption-config.yaml';

export function encryptionConfigYaml(key: Uint8Array): string {
  return [
    'apiVersion: apiserver.config.k8s.io/v1',
    'kind: EncryptionConfiguration',
    'resources:',
    '  - resources:',
    '      - secrets',
    '    providers:',
    '      - aescbc:',
    '          keys:',
    '            - name: key1',
    `              secret: ${Buffer.from(key).toString('base64')}`,
    '      - identity: {}',
    '',
  ].join('\n');
}

/**
 * Writes a config with a fresh key at `path` unless one is there: the key
 * must outlive restarts (Secrets stored with it are unreadable without it),
 * and a user's edits (a second key while rotating) are kept. Mode 0600: it
 * holds a key.
 */
export function ensureEncryptionConfig(path: string): { created: boolean } {
  if (existsSync(path)) return { created: false };
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, encryptionConfigYaml(randomBytes(32)), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    // Another writer got there first: theirs is the key.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { created: false };
    throw err;
  }
  return { created: true };
}

/** `kubelab kubeadm encryption-config PATH`: the same file for a kubeadm-like setup step (compose). */
export function encryptionConfigCommand(argv: string[]): number {
  if (argv.length !== 1 || argv[0]!.startsWith('-')) {
    process.stderr.write('usage: pnpm kubelab kubeadm encryption-config PATH   (writes an EncryptionConfiguration with a new aescbc key unless PATH exists)\n');
    return 2;
  }
  const path = argv[0]!;
  const { created } = ensureEncryptionConfig(path);
  process.stdout.write(created ? `[encryption-config] Generated "${path}" (secrets: aescbc key "key1", then identity)\n` : `[encryption-config] Using the existing "${path}"\n`);
  return 0;
}
