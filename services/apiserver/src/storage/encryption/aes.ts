// The aescbc and aesgcm providers' ciphers (upstream: storage/value/encrypt/aes),
// on node:crypto. Stored layouts, after the provider and key prefixes:
//   aescbc: 16-byte random IV ‖ AES-CBC ciphertext with PKCS#7 padding
//   aesgcm: 12-byte random nonce ‖ AES-GCM ciphertext ‖ 16-byte tag,
//           the storage key as additional authenticated data (a value copied
//           under another key does not decrypt).

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Transformer } from './transformer.js';

const BLOCK = 16;
const GCM_NONCE = 12;
const GCM_TAG = 16;

function algorithm(mode: 'cbc' | 'gcm', key: Uint8Array): string {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32) throw new Error(`crypto/aes: invalid key size ${key.length}`);
  return `aes-${key.length * 8}-${mode}`;
}

/** AES-CBC with a random IV per value (upstream: NewCBCTransformer). */
export function cbcTransformer(key: Uint8Array): Transformer {
  const alg = algorithm('cbc', key);
  return {
    toStorage(data) {
      const iv = randomBytes(BLOCK);
      const c = createCipheriv(alg, key, iv); // PKCS#7 padding is node's default
      return Buffer.concat([iv, c.update(data), c.final()]);
    },
    fromStorage(stored) {
      if (stored.length < BLOCK) throw new Error('the stored data was shorter than the required size');
      const body = stored.subarray(BLOCK);
      if (body.length % BLOCK !== 0) throw new Error('the stored data is not a multiple of the block size');
      const d = createDecipheriv(alg, key, stored.subarray(0, BLOCK)).setAutoPadding(false);
      const plain = Buffer.concat([d.update(body), d.final()]);
      // Padding checked by hand for upstream's errors (node says only "bad decrypt").
      const pad = plain.length > 0 ? plain[plain.length - 1]! : 0;
      if (pad === 0 || pad > plain.length) throw new Error('invalid PKCS7 data (empty or not padded)');
      for (let i = plain.length - pad; i < plain.length; i++) if (plain[i] !== pad) throw new Error('invalid padding on input');
      return { data: plain.subarray(0, plain.length - pad), stale: false };
    },
  };
}

/** AES-GCM with a random 96-bit nonce per value (upstream: NewGCMTransformer). */
export function gcmTransformer(key: Uint8Array): Transformer {
  const alg = algorithm('gcm', key) as 'aes-256-gcm';
  return {
    toStorage(data, authenticatedData) {
      const nonce = randomBytes(GCM_NONCE);
      const c = createCipheriv(alg, key, nonce);
      c.setAAD(Buffer.from(authenticatedData));
      const body = Buffer.concat([c.update(data), c.final()]);
      return Buffer.concat([nonce, body, c.getAuthTag()]);
    },
    fromStorage(stored, authenticatedData) {
      if (stored.length < GCM_NONCE) throw new Error('the stored data was shorter than the required size');
      // Go's AEAD.Open reports every failure (short input, wrong key, other key's data) the same way.
      if (stored.length < GCM_NONCE + GCM_TAG) throw new Error('cipher: message authentication failed');
      const d = createDecipheriv(alg, key, stored.subarray(0, GCM_NONCE));
      d.setAAD(Buffer.from(authenticatedData));
      d.setAuthTag(stored.subarray(stored.length - GCM_TAG));
      try {
        const data = Buffer.concat([d.update(stored.subarray(GCM_NONCE, stored.length - GCM_TAG)), d.final()]);
        return { data, stale: false };
      } catch {
        throw new Error('cipher: message authentication failed');
      }
    },
  };
}
