// Who a component's gRPC call is: the gRPC port requires mutual TLS, so the
// TLS layer has verified the client certificate against the client CA and
// its subject names the user (as on the REST port). Without TLS (no client
// CA configured) every call is anonymous.

import type { PeerCertificate } from 'node:tls';
import { ANONYMOUS, type UserInfo } from './user.js';
import { userFromCertificate } from './x509.js';

interface CallWithAuth {
  getAuthContext?(): { sslPeerCertificate?: PeerCertificate };
}

export function userOfCall(call: object): UserInfo {
  const cert = (call as CallWithAuth).getAuthContext?.().sslPeerCertificate;
  if (!cert) return ANONYMOUS;
  // grpc-js parses the certificate anew per call (a streamed create costs it once).
  return userFromCertificate(cert) ?? ANONYMOUS;
}
