// The service account token controller (upstream
// pkg/controller/serviceaccount/tokens_controller.go): a Secret of type
// kubernetes.io/service-account-token that names a ServiceAccount (annotation
// kubernetes.io/service-account.name) gets a legacy token signed with
// `--service-account-private-key-file`, the cluster CA and the namespace; a
// Secret whose ServiceAccount is gone is deleted, and so are a deleted
// ServiceAccount's token Secrets. Since 1.24 nothing creates such Secrets
// for every ServiceAccount; users create them.

import { isNotFound, type Secret, type ServiceAccount } from '@kubelab/api';
import { isTombstone, type Lister } from '@kubelab/client';
import { legacyClaims, signToken, type SigningKey } from '@kubelab/serviceaccount';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';
export const SERVICE_ACCOUNT_UID_KEY = 'kubernetes.io/service-account.uid';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const unb64 = (s: string | undefined) => (s === undefined ? '' : Buffer.from(s, 'base64').toString('utf8'));

/** Whether the Secret still needs its token, CA or namespace (upstream needsTokenData / needsCA / needsNamespace). */
export function needsTokenData(secret: Secret, rootCA: string): boolean {
  const data = secret.data ?? {};
  if (!data.token) return true;
  if (rootCA && unb64(data['ca.crt']) !== rootCA) return true;
  return unb64(data.namespace) !== (secret.metadata.namespace ?? '');
}

/** Whether a token Secret refers to this ServiceAccount (upstream serviceAccountRefMatches...). */
export function referencesServiceAccount(secret: Secret, sa: ServiceAccount): boolean {
  const a = secret.metadata.annotations ?? {};
  if (a[SERVICE_ACCOUNT_NAME_KEY] !== sa.metadata.name) return false;
  const uid = a[SERVICE_ACCOUNT_UID_KEY];
  return !uid || uid === sa.metadata.uid;
}

export class TokensController extends QueueController {
  private readonly saLister: Lister<ServiceAccount>;
  private readonly secretLister: Lister<Secret>;

  constructor(
    private readonly ctx: ControllerContext,
    private readonly key: SigningKey,
    /** The PEM of `--root-ca-file` written as ca.crt ('' for none). */
    private readonly rootCA: string,
  ) {
    super('serviceaccount_tokens', ctx.logger, queueOptions(ctx));
    const sa = ctx.informers.core.serviceAccounts();
    const secrets = ctx.informers.core.secrets();
    this.saLister = sa.lister();
    this.secretLister = secrets.lister();
    sa.addEventHandler({
      onDelete: (o) => {
        const s = isTombstone(o) ? o.obj : o;
        this.enqueue(`serviceaccount/${s.metadata.namespace}/${s.metadata.name}/${s.metadata.uid ?? ''}`);
      },
    });
    const onSecret = (s: Secret) => {
      if (s.type === SERVICE_ACCOUNT_TOKEN_TYPE) this.enqueue(`secret/${s.metadata.namespace}/${s.metadata.name}`);
    };
    secrets.addEventHandler({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s) });
  }

  async sync(key: string): Promise<void> {
    const [kind, ns = '', name = '', uid = ''] = key.split('/');
    if (kind === 'serviceaccount') return this.syncDeletedServiceAccount(ns, name, uid);
    return this.syncSecret(ns, name);
  }

  /** A deleted ServiceAccount takes its token Secrets with it. */
  private async syncDeletedServiceAccount(ns: string, name: string, uid: string): Promise<void> {
    if (this.saLister.namespace(ns).get(name)?.metadata.uid === uid) return;
    const gone: ServiceAccount = { metadata: { name, namespace: ns, uid } };
    for (const s of this.secretLister.namespace(ns).list()) {
      if (s.type === SERVICE_ACCOUNT_TOKEN_TYPE && referencesServiceAccount(s, gone)) await this.deleteSecret(s);
    }
  }

  private async deleteSecret(s: Secret): Promise<void> {
    await ignoreNotFound(this.ctx.clientset.core.secrets(s.metadata.namespace ?? '').delete(s.metadata.name ?? '', { preconditions: { uid: s.metadata.uid ?? '' } }));
  }

  /** The ServiceAccount the Secret names, read live on a cache miss (it may have just been created). */
  private async serviceAccountOf(secret: Secret): Promise<ServiceAccount | undefined> {
    const ns = secret.metadata.namespace ?? '';
    const name = secret.metadata.annotations?.[SERVICE_ACCOUNT_NAME_KEY] ?? '';
    let sa = this.saLister.namespace(ns).get(name);
    if (!sa && name) {
      try {
        sa = await this.ctx.clientset.core.serviceAccounts(ns).get(name);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    return sa && referencesServiceAccount(secret, sa) ? sa : undefined;
  }

  private async syncSecret(ns: string, name: string): Promise<void> {
    const cached = this.secretLister.namespace(ns).get(name);
    if (!cached || cached.type !== SERVICE_ACCOUNT_TOKEN_TYPE || cached.metadata.deletionTimestamp) return;
    const sa = await this.serviceAccountOf(cached);
    if (!sa) return this.deleteSecret(cached);
    if (!needsTokenData(cached, this.rootCA)) return;
    const secret = structuredClone(cached);
    const data = { ...secret.data };
    if (!data.token) data.token = b64(await signToken(this.key, legacyClaims(ns, { name: sa.metadata.name ?? '', uid: sa.metadata.uid ?? '' }, name)));
    if (this.rootCA) data['ca.crt'] = b64(this.rootCA);
    data.namespace = b64(ns);
    secret.data = data;
    secret.metadata.annotations = { ...secret.metadata.annotations, [SERVICE_ACCOUNT_NAME_KEY]: sa.metadata.name ?? '', [SERVICE_ACCOUNT_UID_KEY]: sa.metadata.uid ?? '' };
    await this.ctx.clientset.core.secrets(ns).update(secret);
  }
}
