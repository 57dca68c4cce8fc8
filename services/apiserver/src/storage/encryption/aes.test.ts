import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cbcTransformer, gcmTransformer } from './aes.js';

const KEY_PATH = '/registry/secrets/default/s1';
const plain = Buffer.from('{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s1"},"data":{"password":"aHVudGVyMg=="}}');

describe.each([16, 24, 32])('AES with a %i-byte key', (size) => {
  const key = randomBytes(size);

  it('aescbc round-trips and stores 16-byte IV ‖ PKCS#7-padded ciphertext', () => {
    const t = cbcTransformer(key);
    const stored = t.toStorage(plain, KEY_PATH);
    expect(stored.length).toBe(16 + (Math.floor(plain.length / 16) + 1) * 16);
    expect(Buffer.from(stored).includes(Buffer.from('hunter'))).toBe(false);
    expect(Buffer.from(t.fromStorage(stored, KEY_PATH).data).toString()).toBe(plain.toString());
    // Decrypted independently with node:crypto: the layout is IV then ciphertext.
    const d = createDecipheriv(`aes-${size * 8}-cbc`, key, stored.subarray(0, 16));
    expect(Buffer.concat([d.update(stored.subarray(16)), d.final()]).toString()).toBe(plain.toString());
  });

  it('aescbc reads a value encrypted independently (known answer)', () => {
    const iv = randomBytes(16);
    const c = createCipheriv(`aes-${size * 8}-cbc`, key, iv);
    const stored = Buffer.concat([iv, c.update(plain), c.final()]);
    expect(Buffer.from(cbcTransformer(key).fromStorage(stored, 'any').data)).toEqual(plain);
  });

  it('aesgcm round-trips with the storage key as authenticated data', () => {
    const t = gcmTransformer(key);
    const stored = t.toStorage(plain, KEY_PATH);
    expect(stored.length).toBe(12 + plain.length + 16);
    expect(Buffer.from(t.fromStorage(stored, KEY_PATH).data)).toEqual(plain);
    // nonce ‖ ciphertext ‖ tag, AAD = the key, checked with node:crypto.
    const d = createDecipheriv(`aes-${size * 8}-gcm` as 'aes-256-gcm', key, stored.subarray(0, 12));
    d.setAAD(Buffer.from(KEY_PATH));
    d.setAuthTag(stored.subarray(stored.length - 16));
    expect(Buffer.concat([d.update(stored.subarray(12, stored.length - 16)), d.final()])).toEqual(plain);
  });

  it('aesgcm reads a value encrypted independently (known answer)', () => {
    const nonce = randomBytes(12);
    const c = createCipheriv(`aes-${size * 8}-gcm` as 'aes-256-gcm', key, nonce);
    c.setAAD(Buffer.from(KEY_PATH));
    const stored = Buffer.concat([nonce, c.update(plain), c.final(), c.getAuthTag()]);
    expect(Buffer.from(gcmTransformer(key).fromStorage(stored, KEY_PATH).data)).toEqual(plain);
  });
});

/** IV ‖ AES-256-CBC of `block` with no padding added: stored data whose padding is whatever `block` ends with. */
function rawCbc(key: Buffer, block: Buffer): Buffer {
  const iv = randomBytes(16);
  const c = createCipheriv('aes-256-cbc', key, iv).setAutoPadding(false);
  return Buffer.concat([iv, c.update(block), c.final()]);
}

describe('AES failures carry upstream texts', () => {
  const key = randomBytes(32);
  const cbc = cbcTransformer(key);
  const gcm = gcmTransformer(key);

  it('a value copied under another key does not decrypt with aesgcm', () => {
    const stored = gcm.toStorage(plain, '/registry/secrets/default/a');
    expect(() => gcm.fromStorage(stored, '/registry/secrets/default/b')).toThrow('cipher: message authentication failed');
  });

  it.each([
    ['cbc', 'shorter than a block', () => cbc.fromStorage(randomBytes(15), 'k'), 'the stored data was shorter than the required size'],
    ['cbc', 'not whole blocks', () => cbc.fromStorage(randomBytes(16 + 17), 'k'), 'the stored data is not a multiple of the block size'],
    ['cbc', 'a last byte of 0', () => cbc.fromStorage(rawCbc(key, Buffer.alloc(16)), 'k'), 'invalid PKCS7 data (empty or not padded)'],
    ['cbc', 'a pad length over the data', () => cbc.fromStorage(rawCbc(key, Buffer.alloc(16, 17)), 'k'), 'invalid PKCS7 data (empty or not padded)'],
    ['cbc', 'inconsistent pad bytes', () => cbc.fromStorage(rawCbc(key, Buffer.from('0123456789abcd\x03\x02', 'latin1')), 'k'), 'invalid padding on input'],
    ['gcm', 'shorter than a nonce', () => gcm.fromStorage(randomBytes(11), 'k'), 'the stored data was shorter than the required size'],
    ['gcm', 'the wrong key', () => gcmTransformer(randomBytes(32)).fromStorage(gcm.toStorage(plain, 'k'), 'k'), 'cipher: message authentication failed'],
  ])('%s: %s', (_mode, _case, run, message) => {
    expect(run).toThrow(message);
  });

  it('refuses a key that is no AES key size', () => {
    expect(() => cbcTransformer(randomBytes(20))).toThrow('crypto/aes: invalid key size 20');
  });
});
