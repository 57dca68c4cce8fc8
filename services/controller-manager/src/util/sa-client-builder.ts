// Per-controller credentials (upstream: clientbuilder.SAControllerClientBuilder
// behind --use-service-account-credentials): each controller writes as its own
// ServiceAccount in kube-system, so RBAC's system:controller:<name> roles and
// the audit trail name it. The manager's own identity creates the account if
// missing and requests a token for it (TokenRequest), renewed at 80 % of its
// life; the controller's clientset sends the current token with every call.

import { isAlreadyExists, isNotFound, type ServiceAccount } from '@kubelab/api';
import type { Clientset, Clock, Timer } from '@kubelab/client';
import type { Logger } from '@kubelab/component-base';

export const SERVICE_ACCOUNT_NAMESPACE = 'kube-system';
/** Upstream asks for one-hour tokens and renews them before they expire. */
const TOKEN_SECONDS = 3600;
const RENEW_AT = 0.8;
const RETRY_MS = 5_000;

export class ServiceAccountClientBuilder {
  private readonly clients = new Map<string, Promise<Clientset>>();
  private readonly tokens = new Map<string, () => string | undefined>();
  private readonly timers = new Set<Timer>();
  private stopped = false;

  constructor(
    private readonly root: Clientset,
    /** A clientset on the manager's connection settings that sends `token()` as its bearer token. */
    private readonly withToken: (token: () => string | undefined) => Clientset,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** The clientset of ServiceAccount `name`, once its first token is issued. */
  clientFor(name: string): Promise<Clientset> {
    let c = this.clients.get(name);
    if (!c) {
      c = this.build(name);
      this.clients.set(name, c);
    }
    return c;
  }

  /** The current token of ServiceAccount `name` (for the controller's REST calls: the scale subresource, aggregated APIs). */
  async tokenFor(name: string): Promise<() => string | undefined> {
    await this.clientFor(name);
    return this.tokens.get(name)!;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) t.stop();
    this.timers.clear();
    for (const c of this.clients.values()) void c.then((cs) => cs.close()).catch(() => undefined);
  }

  private async build(name: string): Promise<Clientset> {
    await this.ensureAccount(name);
    let token = await this.issue(name);
    const renew = (afterMs: number) => {
      if (this.stopped) return;
      const t = this.clock.setTimeout(() => {
        this.timers.delete(t);
        this.issue(name).then(
          (next) => {
            token = next;
            renew(TOKEN_SECONDS * 1000 * RENEW_AT);
          },
          (err: unknown) => {
            // The old token stays valid a while yet: keep it, try again soon.
            this.log.warn('renewing the controller token failed', { serviceAccount: name, err: (err as Error).message });
            renew(RETRY_MS);
          },
        );
      }, afterMs);
      this.timers.add(t);
    };
    renew(TOKEN_SECONDS * 1000 * RENEW_AT);
    this.tokens.set(name, () => token);
    return this.withToken(() => token);
  }

  private async ensureAccount(name: string): Promise<void> {
    const accounts = this.root.core.serviceAccounts(SERVICE_ACCOUNT_NAMESPACE);
    try {
      await accounts.get(name);
    } catch (e) {
      if (!isNotFound(e)) throw e;
      try {
        await accounts.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: SERVICE_ACCOUNT_NAMESPACE } } as ServiceAccount);
      } catch (err) {
        if (!isAlreadyExists(err)) throw err;
      }
    }
  }

  private async issue(name: string): Promise<string> {
    const tr = await this.root.core.serviceAccounts(SERVICE_ACCOUNT_NAMESPACE).createToken(name, {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: {},
      spec: { audiences: [], expirationSeconds: TOKEN_SECONDS },
    });
    const token = tr.status?.token;
    if (!token) throw new Error(`TokenRequest for ${SERVICE_ACCOUNT_NAMESPACE}/${name} returned no token`);
    return token;
  }
}
