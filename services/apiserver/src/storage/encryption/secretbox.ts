// The secretbox provider's cipher (upstream: storage/value/encrypt/secretbox):
// NaCl secretbox (XSalsa20-Poly1305), stored as 24-byte random nonce ‖ box.
// tweetnacl 1.0.3: Cure53-audited, the NaCl API upstream's Go code uses, and
// already in the tree through the NATS client (@nats-io/nkeys).

import { randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';
import type { Transformer } from './transformer.js';

const NONCE = nacl.secretbox.nonceLength; // 24
const OVERHEAD = nacl.secretbox.overheadLength; // 16

export function secretboxTransformer(key: Uint8Array): Transformer {
  if (key.length !== nacl.secretbox.keyLength) throw new Error(`expected key size 32 for secretbox provider, got ${key.length}`);
  return {
    toStorage(data) {
      const nonce = randomBytes(NONCE);
      const box = nacl.secretbox(data, nonce, key);
      const out = Buffer.allocUnsafe(NONCE + box.length);
      out.set(nonce, 0);
      out.set(box, NONCE);
      return out;
    },
    fromStorage(stored) {
      if (stored.length < NONCE + OVERHEAD) throw new Error('the stored data was shorter than the required size');
      const data = nacl.secretbox.open(stored.subarray(NONCE), stored.subarray(0, NONCE), key);
      // Upstream's text for a failed open (wrong key or tampered data).
      if (!data) throw new Error('output array was not large enough for encryption');
      return { data, stale: false };
    },
  };
}
