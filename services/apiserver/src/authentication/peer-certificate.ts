// The client certificate of a TLS connection, read once per connection.
// Authentication asks for it on every request (upstream's x509 authenticator
// reads the verified chain of the connection's state, which Go keeps), but
// Node's TLSSocket.getPeerCertificate() builds a new object each time: the
// parsed subject, the public key and three fingerprints — 30-100 µs of the
// apiserver's CPU per gRPC call, where grpc-js calls it (getAuthContext) for
// every unary call. So the answer is kept per socket once the handshake has
// verified a certificate, and renegotiation is switched off for that socket
// so the certificate under the memo cannot change.

import { TLSSocket, type PeerCertificate } from 'node:tls';

const remembered = new WeakMap<TLSSocket, PeerCertificate>();
let installed = false;

/** Makes TLSSocket.getPeerCertificate() (not the detailed form) answer from the per-socket memo. Idempotent. */
export function rememberPeerCertificates(): void {
  if (installed) return;
  installed = true;
  const read = TLSSocket.prototype.getPeerCertificate;
  // A method replaced on the prototype: grpc-js reads the certificate through the socket, not through us.
  TLSSocket.prototype.getPeerCertificate = function getPeerCertificate(this: TLSSocket, detailed?: boolean) {
    if (detailed) return read.call(this, true);
    const known = remembered.get(this);
    if (known) return known;
    const cert = read.call(this, false);
    // Before the handshake, or without a client certificate: `{}`, not remembered.
    if (cert && cert.raw && this.authorized) {
      this.disableRenegotiation();
      remembered.set(this, cert);
    }
    return cert;
  } as typeof read;
}
