// The token cleaner (upstream pkg/controller/bootstrap/tokencleaner.go):
// deletes bootstrap token Secrets in kube-system once their `expiration` has
// passed; a token not yet expired is looked at again when it expires.

import type { Secret } from '@kubelab/api';
import type { Lister } from '@kubelab/client';
import { bootstrapTokenExpiration, bootstrapTokenExpired, BOOTSTRAP_TOKEN_SECRET_TYPE } from '@kubelab/serviceaccount';
import { ignoreNotFound, QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';

const TOKEN_NAMESPACE = 'kube-system';

export class TokenCleaner extends QueueController {
  private readonly secrets: Lister<Secret>;

  constructor(private readonly ctx: ControllerContext) {
    super('token_cleaner', ctx.logger, queueOptions(ctx));
    const inf = ctx.informers.core.secrets();
    this.secrets = inf.lister();
    const onSecret = (s: Secret) => {
      if (s.metadata.namespace === TOKEN_NAMESPACE && s.type === BOOTSTRAP_TOKEN_SECRET_TYPE) this.enqueue(s.metadata.name ?? '');
    };
    inf.addEventHandler({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s) });
  }

  async sync(name: string): Promise<void> {
    const secret = this.secrets.namespace(TOKEN_NAMESPACE).get(name);
    if (!secret || secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || secret.metadata.deletionTimestamp) return;
    const now = this.clock.now();
    if (bootstrapTokenExpired(secret, now)) {
      await ignoreNotFound(this.ctx.clientset.core.secrets(TOKEN_NAMESPACE).delete(name, { preconditions: { uid: secret.metadata.uid ?? '' } }));
      return;
    }
    const exp = bootstrapTokenExpiration(secret);
    if (exp !== undefined) this.queue.addAfter(name, exp - now + 1);
  }
}
