// Who a request to a component's own HTTPS port is (upstream:
// k8s.io/apiserver's DelegatingAuthenticatorConfig, as the kubelet, the
// scheduler and the controller-manager build it): a client certificate
// verified against --client-ca-file, else a bearer token the apiserver vouches
// for (a TokenReview); a credential that fails is an error, and only a request
// with none is anonymous, when that is allowed (the kubelet's --anonymous-auth;
// always for the scheduler and the controller-manager).

import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { certificateInfo } from '@kubelab/pki';
import { ANONYMOUS, bearerTokenOf, withAuthenticatedGroup } from '@kubelab/api';
import type { AuthenticatorOptions, UserInfo } from './types.js';

export type AuthenticationResult = { user: UserInfo } | { error: string };

/** A connection's certificate user, once its handshake verified it: a kept-alive scraper's requests parse it once. */
const verified = new WeakMap<object, UserInfo>();

/** The user a client certificate names: undefined without one; an Error when the TLS layer could not verify it or it has no CN. */
export function certificateUser(socket: Partial<Pick<TLSSocket, 'getPeerX509Certificate' | 'authorized' | 'authorizationError' | 'disableRenegotiation'>>): UserInfo | undefined | Error {
  const known = verified.get(socket);
  if (known) return known;
  const peer = socket.getPeerX509Certificate?.();
  if (!peer) return undefined;
  if (!socket.authorized) return new Error(`verifying certificate SN=${peer.serialNumber}, failed: ${String(socket.authorizationError ?? 'x509: certificate signed by unknown authority')}`);
  const info = certificateInfo(peer.toString());
  if (!info.commonName) return new Error('common name of client cert is empty');
  const user = { name: info.commonName, groups: info.organizations };
  // The memo holds only while the certificate cannot change under it.
  socket.disableRenegotiation?.();
  verified.set(socket, user);
  return user;
}

export async function authenticateRequest(req: Pick<IncomingMessage, 'headers' | 'socket'>, opts: AuthenticatorOptions): Promise<AuthenticationResult> {
  // The union: each authenticator in turn; the first user wins, errors are collected.
  const errors: string[] = [];
  if (opts.x509) {
    const u = certificateUser(req.socket as Partial<TLSSocket>);
    if (u instanceof Error) errors.push(u.message);
    else if (u) return { user: withAuthenticatedGroup(u) };
  }
  const token = opts.token ? bearerTokenOf(req.headers.authorization) : undefined;
  if (opts.token && token !== undefined) {
    try {
      const u = await opts.token.authenticateToken(token);
      if (u) return { user: withAuthenticatedGroup(u) };
      errors.push('invalid bearer token');
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  // A failed credential never falls back to anonymous (upstream's unionauth.NewFailOnError).
  if (errors.length > 0) return { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
  return opts.anonymous ? { user: ANONYMOUS } : { error: 'no credentials' };
}
