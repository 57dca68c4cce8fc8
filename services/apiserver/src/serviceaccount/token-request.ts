// The TokenRequest API, serviceaccounts/<name>/token (upstream
// pkg/registry/core/serviceaccount/storage/token.go): issues a bound token
// for a service account, optionally bound to a Pod, Secret or Node, signed
// with `--service-account-signing-key-file`. Served over REST (kubectl
// create token) and gRPC (the kubelet's projected tokens).

import { randomUUID } from 'node:crypto';
import { badRequest, conflict, formatTime, invalid, type FieldError, type KubeObject, type Node, type Pod, type TokenRequest } from '@kubelab/api';
import { boundClaims, signToken, type ObjectRef, type SigningKey } from '@kubelab/serviceaccount';
import type { RequestContext } from '../registry/interface.js';
import type { ApiRegistry } from '../registry/registry.js';

/** Defaults and bounds of spec.expirationSeconds (upstream SetDefaults_TokenRequestSpec, ValidateTokenRequest). */
export const DEFAULT_EXPIRATION_SECONDS = 3600;
export const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** The lifetime the ServiceAccount admission plugin asks for, which marks a kube-api-access token (upstream WarnOnlyBoundTokenExpirationSeconds). */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
/** What such a token really lives for with `--service-account-extend-token-expiration` (upstream ExpirationExtensionSeconds: a year). */
export const EXPIRATION_EXTENSION_SECONDS = 365 * 24 * 3600;

export interface TokenIssuerOptions {
  /** `--service-account-issuer` (the first one). */
  issuer: string;
  /** `--api-audiences` (default: the issuer): the audiences of a request that names none. */
  apiAudiences: readonly string[];
  /** `--service-account-signing-key-file`. */
  signingKey: SigningKey;
  /** `--service-account-max-token-expiration` in seconds; 0: no cap. */
  maxExpirationSeconds?: number;
  /** `--service-account-extend-token-expiration` (default true). */
  extendExpiration?: boolean;
  /** Wall clock in milliseconds. */
  now?: () => number;
  newJti?: () => string;
}

/** The field errors of a token request's spec (upstream ValidateTokenRequest). */
export function validateTokenRequestSpec(spec: { expirationSeconds?: number }): FieldError[] {
  const exp = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  if (exp < MIN_EXPIRATION_SECONDS) return [{ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', badValue: exp, detail: 'may not specify a duration less than 10 minutes' }];
  if (exp > MAX_EXPIRATION_SECONDS) return [{ type: 'FieldValueInvalid', field: 'spec.expirationSeconds', badValue: exp, detail: 'may not specify a duration larger than 2^32 seconds' }];
  return [];
}

/** Go's schema.GroupVersionKind String(): `/v1, Kind=Foo`, `apps/v1, Kind=Foo`. */
function gvkString(apiVersion: string, kind: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  return `${group}/${version}, Kind=${kind}`;
}

export class TokenRequestREST {
  private readonly now: () => number;
  private readonly newJti: () => string;

  constructor(
    private readonly registry: ApiRegistry,
    private readonly opts: TokenIssuerOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.newJti = opts.newJti ?? randomUUID;
  }

  private async get<T extends KubeObject>(resource: string, namespace: string | undefined, name: string): Promise<T> {
    return (await this.registry.mustStore('', resource).read(namespace, name)) as T;
  }

  /** Whether a request asks for the apiserver's own audiences (only those tokens get an extended lifetime). */
  private isKubeAudiences(audiences: readonly string[]): boolean {
    return audiences.every((a) => this.opts.apiAudiences.includes(a));
  }

  /**
   * Issues the token of `body` (a decoded TokenRequest) for serviceaccount
   * `name`; returns the request with spec defaulted and status set. Its
   * lookups of the ServiceAccount and bound object are reads inside this
   * request, not requests of their own (the transport counts the request).
   */
  async create(namespace: string, name: string, body: KubeObject, ctx: RequestContext = {}): Promise<TokenRequest> {
    const req = structuredClone(body) as TokenRequest;
    req.metadata ??= {};
    if (req.metadata.name && req.metadata.name !== name) throw badRequest('name in URL does not match name in TokenRequest object');
    req.spec ??= { audiences: [] };
    const errs = validateTokenRequestSpec(req.spec);
    if (errs.length) throw invalid('TokenRequest', 'authentication.k8s.io', name, errs);
    if (!req.spec.audiences?.length) req.spec.audiences = [...this.opts.apiAudiences];
    req.spec.expirationSeconds ??= DEFAULT_EXPIRATION_SECONDS;
    const max = this.opts.maxExpirationSeconds ?? 0;
    if (max > 0 && req.spec.expirationSeconds > max) req.spec.expirationSeconds = max;

    // Admission before the REST's own lookups, as upstream's create handler runs it (NodeRestriction: a node's tokens are bound to its pods).
    await this.registry.admission.reviewSubresourceCreate(this.registry.mustStore('', 'serviceaccounts').info, namespace, name, 'token', req as unknown as KubeObject, ctx);
    const sa = await this.get('serviceaccounts', namespace, name);
    let pod: ObjectRef | undefined;
    let secret: ObjectRef | undefined;
    let node: ObjectRef | undefined;
    const ref = req.spec.boundObjectRef;
    if (ref) {
      const apiVersion = ref.apiVersion ?? '';
      const kind = ref.kind ?? '';
      const group = apiVersion.includes('/') ? apiVersion.split('/')[0] : '';
      const refName = ref.name ?? '';
      let uid: string | undefined;
      if (group === '' && kind === 'Pod') {
        const p = await this.get<Pod>('pods', namespace, refName);
        if (p.spec?.serviceAccountName !== name) throw badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`);
        uid = p.metadata.uid;
        pod = { name: refName, uid: uid ?? '' };
        // The pod's node, when it is known, is named too (upstream ServiceAccountTokenPodNodeInfo).
        const nodeName = p.spec?.nodeName;
        if (nodeName) {
          const n = await this.get<Node>('nodes', undefined, nodeName).catch(() => undefined);
          if (n) node = { name: nodeName, uid: n.metadata.uid ?? '' };
        }
      } else if (group === '' && kind === 'Node') {
        const n = await this.get<Node>('nodes', undefined, refName);
        uid = n.metadata.uid;
        node = { name: refName, uid: uid ?? '' };
      } else if (group === '' && kind === 'Secret') {
        const s = await this.get('secrets', namespace, refName);
        uid = s.metadata.uid;
        secret = { name: refName, uid: uid ?? '' };
      } else {
        throw badRequest(`cannot bind token for serviceaccount "${name}" to object of type ${gvkString(apiVersion, kind)}`);
      }
      if (ref.uid && ref.uid !== uid) {
        throw conflict(
          { group, resource: kind },
          refName,
          `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
        );
      }
    }

    // kube-api-access tokens live a year but say when they should have been refreshed (upstream's extended expiration).
    let lifetime = req.spec.expirationSeconds;
    let warnAfterSeconds: number | undefined;
    if ((this.opts.extendExpiration ?? true) && pod && lifetime === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && this.isKubeAudiences(req.spec.audiences)) {
      warnAfterSeconds = lifetime;
      lifetime = Math.max(EXPIRATION_EXTENSION_SECONDS, max);
    }
    const nowSeconds = Math.floor(this.now() / 1000);
    const claims = boundClaims({
      issuer: this.opts.issuer,
      audiences: req.spec.audiences,
      namespace,
      serviceAccount: { name, uid: sa.metadata.uid ?? '' },
      ...(pod ? { pod } : {}),
      ...(secret ? { secret } : {}),
      ...(node ? { node } : {}),
      now: nowSeconds,
      expirationSeconds: lifetime,
      ...(warnAfterSeconds !== undefined ? { warnAfterSeconds } : {}),
      jti: this.newJti(),
    });
    const token = await signToken(this.opts.signingKey, claims);
    return {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { ...req.metadata, name, namespace },
      spec: req.spec,
      status: { token, expirationTimestamp: formatTime((nowSeconds + req.spec.expirationSeconds) * 1000) },
    };
  }
}
