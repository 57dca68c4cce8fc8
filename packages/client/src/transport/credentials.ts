// The channel credentials a component's client dials the apiserver with:
// each connection under client-go's health check (health-check.ts), and no
// IP address sent as the TLS server name. Go's crypto/tls sends SNI only for
// a host name (RFC 6066 forbids addresses) and checks an address target
// against the certificate's IP SANs; grpc-js sets the server name to the
// target's host whatever it is, which Node answers with a DEP0123 warning
// at the top of every component's journal.

import type { ConnectionOptions } from 'node:tls';
import { isIP } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { watchConnection, type HealthCheck } from './health-check.js';

type SecureConnector = ReturnType<grpc.ChannelCredentials['_createSecureConnector']>;

/**
 * Leaves an address out of the TLS server name, as Go does. Node then checks
 * the certificate against `host`, the address (grpc-js sets it beside the
 * server name); an ssl_target_name_override keeps its own identity check.
 */
export function withoutAddressServerName(options: ConnectionOptions): void {
  if (options.servername !== undefined && isIP(options.servername) !== 0) delete options.servername;
}

/** Channel credentials as a component's client uses them: the inner credentials' TLS, Go's server name, the health check if one is set. */
export class ComponentCredentials extends grpc.ChannelCredentials {
  constructor(
    readonly inner: grpc.ChannelCredentials,
    readonly check: HealthCheck | undefined,
  ) {
    super();
  }

  _isSecure(): boolean {
    return this.inner._isSecure();
  }

  _equals(other: grpc.ChannelCredentials): boolean {
    return (
      other instanceof ComponentCredentials &&
      other.check?.readIdleTimeoutMs === this.check?.readIdleTimeoutMs &&
      other.check?.pingTimeoutMs === this.check?.pingTimeoutMs &&
      this.inner._equals(other.inner)
    );
  }

  _createSecureConnector(...args: Parameters<grpc.ChannelCredentials['_createSecureConnector']>): SecureConnector {
    const connector = this.inner._createSecureConnector(...args);
    // grpc-js's TLS connector keeps the options it passes to tls.connect (connectionOptions); an insecure one has none.
    const tlsOptions = (connector as SecureConnector & { connectionOptions?: ConnectionOptions }).connectionOptions;
    if (tlsOptions) withoutAddressServerName(tlsOptions);
    const check = this.check;
    if (!check) return connector;
    return {
      async connect(socket) {
        const result = await connector.connect(socket);
        watchConnection(result.socket, check);
        return result;
      },
      waitForReady: () => connector.waitForReady(),
      getCallCredentials: () => connector.getCallCredentials(),
      destroy: () => connector.destroy(),
    };
  }
}
