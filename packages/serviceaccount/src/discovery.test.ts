import { createPublicKey, createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openIdMetadata } from './discovery.js';
import { keyIdOf } from './keys.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

describe('service account issuer discovery', () => {
  it('renders the discovery document with the apiserver JWKS URI and the keys algorithms', () => {
    const md = openIdMetadata(ISSUER, undefined, '127.0.0.1:6443', [rsa.publicKey, ec.publicKey]);
    expect(JSON.parse(md.configuration)).toEqual({
      issuer: ISSUER,
      jwks_uri: 'https://127.0.0.1:6443/openid/v1/jwks',
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256', 'RS256'],
    });
    expect(JSON.parse(openIdMetadata(ISSUER, 'https://example.test/jwks', 'x:1', [rsa.publicKey]).configuration).jwks_uri).toBe('https://example.test/jwks');
  });

  it('publishes each key as a JWK whose kid is the tokens kid and which verifies their signature', () => {
    const { keys } = JSON.parse(openIdMetadata(ISSUER, undefined, 'a:1', [rsa.publicKey, ec.publicKey]).jwks) as { keys: Record<string, string>[] };
    expect(Object.keys(keys[0]!)).toEqual(['use', 'kty', 'kid', 'alg', 'n', 'e']);
    expect(keys[0]).toMatchObject({ use: 'sig', kty: 'RSA', kid: keyIdOf(rsa.publicKey), alg: 'RS256', e: 'AQAB' });
    expect(keys[1]).toMatchObject({ use: 'sig', kty: 'EC', kid: keyIdOf(ec.publicKey), alg: 'ES256', crv: 'P-256' });
    // A relying party rebuilds the key from the JWK alone.
    const signed = createSign('SHA256').update('payload').sign(rsa.privateKey);
    expect(
      createVerify('SHA256')
        .update('payload')
        .verify(createPublicKey({ key: keys[0]!, format: 'jwk' }), signed),
    ).toBe(true);
  });

  it.each([
    ['kubernetes/serviceaccount', 'is not a valid URL'],
    ['http://kubernetes.default.svc', 'must use https scheme'],
    ['https://issuer.test/?x=1', 'may not include a query'],
  ])('refuses issuer %s (discovery stays off)', (issuer, why) => {
    expect(() => openIdMetadata(issuer, undefined, 'a:1', [rsa.publicKey])).toThrow(why);
  });
});
