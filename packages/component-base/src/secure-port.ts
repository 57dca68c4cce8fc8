// A control-plane component's secure port in one step, as kube-scheduler's and
// kube-controller-manager's Config.SecureServing with their delegated
// authentication and authorization clients: the TokenReview and
// SubjectAccessReview connections from --authentication-kubeconfig and
// --authorization-kubeconfig (else the component's own client), and the HTTPS
// health, readiness and metrics server behind them.

import { serveHealth, type HealthChecks, type HealthServer, type SecureServing } from './health.js';
import { reviewClients, secureServing, type ReviewClientset, type SecurePortConfig } from './secure-serving.js';

/** A review connection the component opened for a kubeconfig of its own (closed with the port). */
export interface ReviewConnection extends ReviewClientset {
  close(): void;
}

export interface SecurePortOptions<Tls extends { caPem?: string }> {
  /** The certificate's file names (upstream PairName): kube-scheduler, kube-controller-manager. */
  pairName: string;
  /** --bind-address (default 0.0.0.0). */
  bindAddress: string;
  /** --secure-port. */
  port: number;
  config: SecurePortConfig;
  /** The authentication, authorization and main kubeconfigs' TLS settings. */
  authenticationTls?: Tls | undefined;
  authorizationTls?: Tls | undefined;
  apiserverTls?: Tls | undefined;
  /** Opens a connection with a kubeconfig's credentials. */
  connect: (tls: Tls) => ReviewConnection;
  /** The component's own client, for the reviews without a kubeconfig of their own. */
  own: ReviewClientset;
  checks: HealthChecks;
  onRefused?: SecureServing['onRefused'];
}

export interface SecurePort {
  port: number;
  /** Stops serving and closes the review connections. */
  close(): Promise<void>;
}

/** Serves the secure port; on failure the review connections are closed and the error names the port. */
export async function serveSecurePort<Tls extends { caPem?: string }>(o: SecurePortOptions<Tls>): Promise<SecurePort> {
  const authn = o.authenticationTls ? o.connect(o.authenticationTls) : undefined;
  const authz = o.authorizationTls ? o.connect(o.authorizationTls) : undefined;
  const closeConnections = () => [authn, authz].forEach((c) => c?.close());
  let health: HealthServer;
  try {
    const kubeconfigCaPem = (o.authenticationTls ?? o.apiserverTls)?.caPem;
    health = await serveHealth({
      ...o.checks,
      host: o.bindAddress,
      port: o.port,
      secure: await secureServing(o.config, {
        pairName: o.pairName,
        bindAddress: o.bindAddress,
        ...(kubeconfigCaPem ? { kubeconfigCaPem } : {}),
        ...reviewClients(authn ?? o.own, authz ?? o.own),
        ...(o.onRefused ? { onRefused: o.onRefused } : {}),
      }),
    });
  } catch (err) {
    closeConnections();
    throw new Error(`serving health on port ${o.port}: ${(err as Error).message}`, { cause: err });
  }
  return {
    port: health.port,
    close: async () => {
      await health.close();
      closeConnections();
    },
  };
}
