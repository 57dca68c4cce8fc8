// The bootstrap signer (upstream pkg/controller/bootstrap/bootstrapsigner.go):
// keeps one detached JWS per usable bootstrap token in ConfigMap
// kube-public/cluster-info (`jws-kubeconfig-<token-id>`), computed over its
// `kubeconfig`, so that `kubeadm join` can trust what it reads there before
// it trusts the apiserver. Signatures of tokens that are gone, expired or
// not for signing are removed; the ConfigMap is written only on a change.

import type { ConfigMap, Secret } from '@kubelab/api';
import type { Lister } from '@kubelab/client';
import { BOOTSTRAP_TOKEN_SECRET_PREFIX, BOOTSTRAP_TOKEN_SECRET_TYPE, JWS_SIGNATURE_KEY_PREFIX, bootstrapTokenExpired, computeDetachedSignature, secretData } from '@kubelab/serviceaccount';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';

const TOKEN_NAMESPACE = 'kube-system';
const CLUSTER_INFO_NAMESPACE = 'kube-public';
const CLUSTER_INFO = 'cluster-info';
/** bootstrapapi.KubeConfigKey */
const KUBECONFIG_KEY = 'kubeconfig';

/** token id → secret of each token usable for signing at `now` (upstream getTokens / validateSecretForSigning). */
export function signingTokens(secrets: readonly Secret[], now: number): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const s of secrets) {
    if (s.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || s.metadata.namespace !== TOKEN_NAMESPACE) continue;
    const id = secretData(s, 'token-id');
    const secret = secretData(s, 'token-secret');
    if (!id || !secret || s.metadata.name !== `${BOOTSTRAP_TOKEN_SECRET_PREFIX}${id}`) continue;
    if (secretData(s, 'usage-bootstrap-signing') !== 'true' || bootstrapTokenExpired(s, now)) continue;
    tokens.set(id, secret);
  }
  return tokens;
}

/** cluster-info's data as it should be: its own keys, and a signature per token; undefined when it has no kubeconfig to sign. Pure. */
export function signedData(data: Readonly<Record<string, string>>, tokens: ReadonlyMap<string, string>): Record<string, string> | undefined {
  const content = data[KUBECONFIG_KEY];
  if (content === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) if (!k.startsWith(JWS_SIGNATURE_KEY_PREFIX)) out[k] = v;
  for (const [id, secret] of tokens) out[`${JWS_SIGNATURE_KEY_PREFIX}${id}`] = computeDetachedSignature(content, id, secret);
  return out;
}

function sameData(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

export class BootstrapSigner extends QueueController {
  private readonly secrets: Lister<Secret>;
  private readonly configMaps: Lister<ConfigMap>;

  constructor(private readonly ctx: ControllerContext) {
    super('bootstrap_signer', ctx.logger, queueOptions(ctx));
    const secrets = ctx.informers.core.secrets();
    const configMaps = ctx.informers.core.configMaps();
    this.secrets = secrets.lister();
    this.configMaps = configMaps.lister();
    // Every change that matters funnels into the one key.
    const onSecret = (s: Secret) => {
      if (s.metadata.namespace === TOKEN_NAMESPACE && s.type === BOOTSTRAP_TOKEN_SECRET_TYPE) this.enqueue(CLUSTER_INFO);
    };
    secrets.addEventHandler({ onAdd: onSecret, onUpdate: (_o, s) => onSecret(s), onDelete: onSecret });
    const onConfigMap = (cm: ConfigMap) => {
      if (cm.metadata.namespace === CLUSTER_INFO_NAMESPACE && cm.metadata.name === CLUSTER_INFO) this.enqueue(CLUSTER_INFO);
    };
    configMaps.addEventHandler({ onAdd: onConfigMap, onUpdate: (_o, cm) => onConfigMap(cm) });
  }

  async sync(): Promise<void> {
    const cm = this.configMaps.namespace(CLUSTER_INFO_NAMESPACE).get(CLUSTER_INFO);
    if (!cm) return;
    const now = this.clock.now();
    const secrets = this.secrets.namespace(TOKEN_NAMESPACE).list();
    // A token's signature goes when the token expires (as the token cleaner deletes it): look again then.
    const next = Math.min(...secrets.map((s) => Date.parse(secretData(s, 'expiration'))).filter((t) => t > now));
    if (Number.isFinite(next)) this.queue.addAfter(CLUSTER_INFO, next - now + 1);
    const data = signedData(cm.data ?? {}, signingTokens(secrets, now));
    if (!data || sameData(data, cm.data ?? {})) return;
    await this.ctx.clientset.core.configMaps(CLUSTER_INFO_NAMESPACE).update({ ...cm, data });
  }
}
