// The detached JWS that signs kube-public/cluster-info for each bootstrap
// token (upstream k8s.io/cluster-bootstrap token/jws): HS256 over the
// kubeconfig text, keyed with the token's secret, its id as `kid`, the
// payload left out of the compact form (RFC 7515 appendix F). The
// controller-manager's bootstrap signer writes it as `jws-kubeconfig-<id>`;
// `kubeadm join` recomputes it with the token it was given.

import { createHmac, timingSafeEqual } from 'node:crypto';

/** cluster-info's data key for a token's signature (bootstrapapi.JWSSignatureKeyPrefix + id). */
export const JWS_SIGNATURE_KEY_PREFIX = 'jws-kubeconfig-';

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** `<header>..<signature>` for `content`; the header is go-jose's for HS256 with a kid (keys sorted: alg, kid). */
export function computeDetachedSignature(content: string, tokenId: string, tokenSecret: string): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', kid: tokenId }));
  // go-jose wants 32-byte HS256 keys, so upstream pads the secret with zeros; HMAC pads short keys with zeros itself.
  const key = Buffer.alloc(Math.max(32, Buffer.byteLength(tokenSecret)));
  key.write(tokenSecret);
  const signature = createHmac('sha256', key)
    .update(`${header}.${b64url(content)}`)
    .digest();
  return `${header}..${b64url(signature)}`;
}

/** Whether `detached` is the signature of `content` with this token (compared in constant time). */
export function detachedTokenIsValid(detached: string, content: string, tokenId: string, tokenSecret: string): boolean {
  const want = Buffer.from(computeDetachedSignature(content, tokenId, tokenSecret));
  const got = Buffer.from(detached);
  return got.length === want.length && timingSafeEqual(got, want);
}
