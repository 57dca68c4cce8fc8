// Who a component's gRPC call is. With a client CA the gRPC port verifies a
// client certificate when one is given (upstream's VerifyClientCertIfGiven:
// a certificate the CA did not sign fails the handshake), and its subject
// names the connection's user. A call may carry a bearer token in its
// `authorization` metadata instead or as well (the controller-manager's
// per-controller ServiceAccount credentials over its one connection,
// upstream's --use-service-account-credentials; a joined node's kube-proxy,
// which has only its ServiceAccount's token); then the token names the
// caller. The component port has no anonymous access: with a client CA, a
// call with neither is refused (Unauthenticated). Without TLS (no client CA
// configured) a call without a token is anonymous.

import type { PeerCertificate } from 'node:tls';
import { bearerTokenOf, unauthorized, ANONYMOUS, type UserInfo } from '@kubelab/api';
import { authenticateToken, type TokenAuthenticator } from './token.js';
import { userFromCertificate } from './x509.js';

interface AuthenticatedCall {
  getAuthContext?(): { sslPeerCertificate?: PeerCertificate };
  metadata?: { get(key: string): unknown[] };
}

/** Token results are kept briefly (upstream's cached token authenticator: 10 s), so a busy controller costs one verification per TTL. */
const TOKEN_CACHE_TTL_MS = 10_000;
const TOKEN_CACHE_MAX = 1_024;

export function grpcAuthenticator(tokens: readonly TokenAuthenticator[], now: () => number = Date.now, opts: { requireCredentials?: boolean } = {}): (call: object) => UserInfo | Promise<UserInfo> {
  const cache = new Map<string, { user?: UserInfo; expires: number }>();
  const remember = (token: string, user: UserInfo | undefined) => {
    if (cache.size >= TOKEN_CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(token, { ...(user ? { user } : {}), expires: now() + TOKEN_CACHE_TTL_MS });
  };
  return (call) => {
    const c = call as AuthenticatedCall;
    const header = c.metadata?.get('authorization')[0];
    const token = bearerTokenOf(header);
    if (token !== undefined) {
      const hit = cache.get(token);
      if (hit && hit.expires > now()) {
        if (!hit.user) throw unauthorized();
        return hit.user;
      }
      return authenticateToken(tokens, token).then((r) => {
        remember(token, r.ok ? r.response.user : undefined);
        if (!r.ok) throw unauthorized();
        return r.response.user;
      });
    }
    const cert = c.getAuthContext?.().sslPeerCertificate;
    // grpc-js parses the certificate anew per call (a streamed create costs it once).
    const user = cert && userFromCertificate(cert);
    if (user) return user;
    if (opts.requireCredentials) throw unauthorized();
    return ANONYMOUS;
  };
}
