// The review APIs (upstream: pkg/registry/authorization/{subjectaccessreview,
// selfsubjectaccessreview,localsubjectaccessreview,selfsubjectrulesreview}
// and pkg/registry/authentication/selfsubjectreview): create-only resources
// answered from the authorizer chain, the rule resolvers or the request's
// user, and never stored.

import {
  badRequest,
  formatTime,
  invalid,
  toApiUserInfo,
  type FieldError,
  type KubeObject,
  type NonResourceAttributes,
  type ResourceAttributes,
  type SubjectAccessReviewSpec,
  type SubjectAccessReviewStatus,
} from '@kubelab/api';
import type { UserInfo } from '@kubelab/api';
import { resourceAttributes } from '../../authorization/attributes.js';
import type { AuthorizationAttributes, Authorizer, RuleResolver } from '../../authorization/types.js';
import type { ResourceStore } from '../interface.js';
import { createOnly, info } from '../create-only.js';

const GROUP = 'authorization.k8s.io';

type Spec = SubjectAccessReviewSpec;

/** Upstream ValidateSubjectAccessReviewSpec / ValidateSelfSubjectAccessReviewSpec. */
function specErrors(spec: Spec | undefined, self: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const s = spec ?? {};
  if (s.resourceAttributes && s.nonResourceAttributes) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', badValue: s.nonResourceAttributes, detail: 'cannot be specified in combination with resourceAttributes' });
  }
  if (!s.resourceAttributes && !s.nonResourceAttributes) {
    errs.push({ type: 'FieldValueInvalid', field: 'spec.resourceAttributes', badValue: 'null', detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' });
  }
  if (!self && !s.user && !(s.groups ?? []).length) errs.push({ type: 'FieldValueInvalid', field: 'spec.user', badValue: s.user ?? '', detail: 'at least one of user or group must be specified' });
  return errs;
}

/** The metadata of a review must be empty (a null creationTimestamp, as clients send, counts as empty). */
function metadataErrors(obj: KubeObject, allowNamespace: boolean): FieldError[] {
  const m = { ...(obj.metadata as unknown as Record<string, unknown>) };
  delete m.managedFields;
  if (m.creationTimestamp === null) delete m.creationTimestamp;
  if (allowNamespace) delete m.namespace;
  const empty = Object.values(m).every((v) => v === undefined || v === '' || (typeof v === 'object' && v !== null && Object.keys(v).length === 0));
  return empty ? [] : [{ type: 'FieldValueInvalid', field: 'metadata', badValue: '', detail: allowNamespace ? 'must be empty except for namespace' : 'must be empty' }];
}

/** The attributes a review asks about (upstream authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom). */
export function reviewAttributes(user: UserInfo, ra: ResourceAttributes | undefined, nra: NonResourceAttributes | undefined): AuthorizationAttributes {
  if (ra) {
    return resourceAttributes(user, ra.verb ?? '', {
      group: ra.group ?? '',
      version: ra.version ?? '',
      resource: ra.resource ?? '',
      subresource: ra.subresource ?? '',
      namespace: ra.namespace ?? '',
      name: ra.name ?? '',
      fieldSelector: ra.fieldSelector?.rawSelector,
    });
  }
  return { user, verb: nra?.verb ?? '', resourceRequest: false, path: nra?.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' };
}

function decide(authorizer: Authorizer, a: AuthorizationAttributes): SubjectAccessReviewStatus {
  const d = authorizer.authorize(a);
  const status: SubjectAccessReviewStatus = { allowed: d.decision === 'Allow' };
  if (d.decision === 'Deny') status.denied = true;
  if (d.reason) status.reason = d.reason;
  return status;
}

/** The user a SubjectAccessReview names in its spec. */
function specUser(spec: Spec): UserInfo {
  const u: { name: string; uid?: string; groups: string[]; extra?: Record<string, string[]> } = { name: spec.user ?? '', groups: [...(spec.groups ?? [])] };
  if (spec.uid) u.uid = spec.uid;
  if (spec.extra) u.extra = spec.extra;
  return u;
}

interface Review extends KubeObject {
  spec?: Spec & { namespace?: string };
}

export function reviewStores(authorizer: Authorizer, ruleResolver: RuleResolver, now: () => Date = () => new Date()): ResourceStore[] {
  return [
    createOnly(info(GROUP, 'v1', 'subjectaccessreviews'), (_ns, obj) => {
      const r = obj as Review;
      const errs = [...specErrors(r.spec, false), ...metadataErrors(obj, false)];
      if (errs.length) throw invalid('SubjectAccessReview', GROUP, '', errs);
      return { ...obj, status: decide(authorizer, reviewAttributes(specUser(r.spec!), r.spec!.resourceAttributes, r.spec!.nonResourceAttributes)) };
    }),
    createOnly(info(GROUP, 'v1', 'selfsubjectaccessreviews'), (_ns, obj, user) => {
      const r = obj as Review;
      const errs = specErrors(r.spec, true);
      if (errs.length) throw invalid('SelfSubjectAccessReview', GROUP, '', errs);
      return { ...obj, status: decide(authorizer, reviewAttributes(user, r.spec!.resourceAttributes, r.spec!.nonResourceAttributes)) };
    }),
    createOnly(info(GROUP, 'v1', 'localsubjectaccessreviews'), (ns, obj) => {
      const r = obj as Review;
      if (!ns) throw badRequest(`namespace is required on this type: ${ns ?? ''}`);
      const errs = [...specErrors(r.spec, false), ...metadataErrors(obj, true)];
      const ra = r.spec?.resourceAttributes;
      if (ra && (ra.namespace ?? '') !== ns)
        errs.push({ type: 'FieldValueInvalid', field: 'spec.resourceAttributes.namespace', badValue: ra.namespace ?? '', detail: 'must match metadata.namespace' });
      if (r.spec?.nonResourceAttributes) errs.push({ type: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', badValue: '', detail: 'disallowed on this kind of request' });
      if (errs.length) throw invalid('LocalSubjectAccessReview', GROUP, '', errs);
      return { ...obj, status: decide(authorizer, reviewAttributes(specUser(r.spec!), ra, undefined)) };
    }),
    createOnly(info(GROUP, 'v1', 'selfsubjectrulesreviews'), (_ns, obj, user) => {
      const namespace = (obj as Review).spec?.namespace ?? '';
      if (!namespace) throw badRequest('no namespace on request');
      const rules = ruleResolver.rulesFor(user, namespace);
      const status: Record<string, unknown> = { resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: rules.incomplete };
      if (rules.evaluationError) status.evaluationError = rules.evaluationError;
      return { ...obj, status };
    }),
    ...['v1', 'v1beta1'].map((version) =>
      createOnly(info('authentication.k8s.io', version, 'selfsubjectreviews'), (_ns, _obj, user) => {
        return { apiVersion: `authentication.k8s.io/${version}`, kind: 'SelfSubjectReview', metadata: { creationTimestamp: formatTime(now().getTime()) }, status: { userInfo: toApiUserInfo(user) } };
      }),
    ),
  ];
}
