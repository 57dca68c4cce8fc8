// Signing and verifying service account JWTs with `jose` (upstream uses
// go-jose): compact JWS, `alg` from the key, `kid` from its public half.
// Claim checks (issuer, audience, expiry, bound objects) are the callers'
// (the apiserver's authenticator), so their errors read as upstream's.

import { CompactSign, compactVerify } from 'jose';
import type { KeyObject } from 'node:crypto';
import type { SigningKey } from './keys.js';

const encoder = new TextEncoder();

/** A signed compact JWT carrying `claims` (upstream jwtTokenGenerator.GenerateToken). */
export async function signToken(key: SigningKey, claims: object): Promise<string> {
  return new CompactSign(encoder.encode(JSON.stringify(claims))).setProtectedHeader({ alg: key.alg, kid: key.keyId }).sign(key.privateKey);
}

/**
 * The claims of a token without checking its signature, or undefined when it
 * is not a compact JWT with a JSON object payload. Used only to pick the
 * authenticator by issuer (upstream hasCorrectIssuer), never trusted.
 */
export function unverifiedClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    return payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The go-jose text for a signature no key verifies (what upstream's authenticator reports). */
export const SIGNATURE_ERROR = 'go-jose/go-jose: error in cryptographic primitive';

/**
 * The payload of a token whose signature one of `keys` verifies (each is
 * tried, as upstream does); throws SIGNATURE_ERROR when none does.
 */
export async function verifySignature(token: string, keys: readonly KeyObject[]): Promise<Record<string, unknown>> {
  for (const key of keys) {
    try {
      const { payload } = await compactVerify(token, key, { algorithms: ['RS256', 'ES256', 'ES384', 'ES512'] });
      return JSON.parse(Buffer.from(payload).toString('utf8')) as Record<string, unknown>;
    } catch {
      // Another key may verify it.
    }
  }
  throw new Error(SIGNATURE_ERROR);
}
