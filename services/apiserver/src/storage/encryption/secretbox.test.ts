import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secretboxTransformer } from './secretbox.js';

// The NaCl secretbox test vector (libsodium's secretbox test: "firstkey",
// its nonce, a 131-byte message and the 147-byte box = tag ‖ ciphertext).
const KAT = {
  key: Buffer.from('GydVZHPphdRizVEZeppGx2AJVJ6sZHTyBsTuCET2g4k=', 'base64'),
  nonce: Buffer.from('69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37', 'hex'),
  message: Buffer.from(
    'be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffce5ecbaaf33bd751a1ac728d45e6c61296cdc3c01233561f41db66cce314adb310e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a838f21af1fde048977eb48f59ffd4924ca1c60902e52f0a089bc76897040e082f937763848645e0705',
    'hex',
  ),
  box: Buffer.from(
    'f3ffc7703f9400e52a7dfb4b3d3305d98e993b9f48681273c29650ba32fc76ce48332ea7164d96a4476fb8c531a1186ac0dfc17c98dce87b4da7f011ec48c97271d2c20f9b928fe2270d6fb863d51738b48eeee314a7cc8ab932164548e526ae90224368517acfeabd6bb3732bc0e9da99832b61ca01b6de56244a9e88d5f9b37973f622a43d14a6599b1f654cb45a74e355a5',
    'hex',
  ),
};

describe('secretbox', () => {
  it('reads the NaCl known answer stored as 24-byte nonce ‖ box', () => {
    const t = secretboxTransformer(KAT.key);
    expect(Buffer.from(t.fromStorage(Buffer.concat([KAT.nonce, KAT.box]), 'k').data)).toEqual(KAT.message);
  });

  it('round-trips with a fresh nonce per value', () => {
    const t = secretboxTransformer(randomBytes(32));
    const plain = Buffer.from('{"kind":"Secret","data":{"token":"c2VjcmV0"}}');
    const a = t.toStorage(plain, 'k');
    const b = t.toStorage(plain, 'k');
    expect(a.length).toBe(24 + 16 + plain.length);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(Buffer.from(t.fromStorage(a, 'k').data)).toEqual(plain);
  });

  it('fails with upstream texts on short or foreign data', () => {
    const t = secretboxTransformer(KAT.key);
    expect(() => t.fromStorage(randomBytes(39), 'k')).toThrow('the stored data was shorter than the required size');
    expect(() => secretboxTransformer(randomBytes(32)).fromStorage(Buffer.concat([KAT.nonce, KAT.box]), 'k')).toThrow('output array was not large enough for encryption');
  });

  it('needs a 32-byte key', () => {
    expect(() => secretboxTransformer(randomBytes(16))).toThrow('expected key size 32 for secretbox provider, got 16');
  });
});
