// flowcontrol.apiserver.k8s.io/v1 validation (pkg/apis/flowcontrol/validation): FlowSchema and PriorityLevelConfiguration,
// the checks a user's object meets most (ranges, required references, the union's discriminators), with upstream's texts.
import type { FlowSchema, PolicyRulesWithSubjects, PriorityLevelConfiguration } from '../flowcontrol/v1/types.js';
import type { FieldError } from '../meta/status.js';
import { index, invalid, notSupported, required } from './field.js';
import { nameIsDNSSubdomain, validateObjectMeta, validateObjectMetaUpdate } from './meta.js';

const DISTINGUISHERS = ['ByNamespace', 'ByUser'];
const SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const LEVEL_TYPES = ['Exempt', 'Limited'];
const LIMIT_RESPONSES = ['Queue', 'Reject'];

function validateRule(rule: PolicyRulesWithSubjects, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!rule.subjects?.length) errs.push(required(`${path}.subjects`, 'subjects must contain at least one value'));
  (rule.subjects ?? []).forEach((s, i) => {
    const p = index(`${path}.subjects`, i);
    if (!SUBJECT_KINDS.includes(s.kind)) errs.push(notSupported(`${p}.kind`, s.kind, SUBJECT_KINDS));
    else if (s.kind === 'User' && !s.user?.name) errs.push(required(`${p}.user.name`, 'username is required'));
    else if (s.kind === 'Group' && !s.group?.name) errs.push(required(`${p}.group.name`));
    else if (s.kind === 'ServiceAccount' && (!s.serviceAccount?.name || !s.serviceAccount.namespace))
      errs.push(required(`${p}.serviceAccount`, 'serviceAccount is required when subject kind is ServiceAccount'));
  });
  if (!rule.resourceRules?.length && !rule.nonResourceRules?.length) errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  (rule.resourceRules ?? []).forEach((r, i) => {
    const p = index(`${path}.resourceRules`, i);
    if (!r.verbs?.length) errs.push(required(`${p}.verbs`, 'verbs must contain at least one value'));
    if (!r.apiGroups?.length) errs.push(required(`${p}.apiGroups`, 'resource rules must supply at least one api group'));
    if (!r.resources?.length) errs.push(required(`${p}.resources`, 'resource rules must supply at least one resource'));
    if (!r.namespaces?.length && !r.clusterScope) errs.push(required(`${p}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  });
  (rule.nonResourceRules ?? []).forEach((r, i) => {
    const p = index(`${path}.nonResourceRules`, i);
    if (!r.verbs?.length) errs.push(required(`${p}.verbs`, 'verbs must contain at least one value'));
    if (!r.nonResourceURLs?.length) errs.push(required(`${p}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  });
  return errs;
}

export function validateFlowSchema(fs: FlowSchema): FieldError[] {
  const errs = validateObjectMeta(fs.metadata, false, nameIsDNSSubdomain);
  const spec = fs.spec;
  if (!spec) return [...errs, required('spec')];
  const precedence = spec.matchingPrecedence ?? 1000;
  if (precedence < 1 || precedence > 10000) errs.push(invalid('spec.matchingPrecedence', precedence, 'must be between 1 and 10000, inclusive'));
  if (!spec.priorityLevelConfiguration?.name) errs.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  const dm = spec.distinguisherMethod?.type;
  if (spec.distinguisherMethod && !DISTINGUISHERS.includes(dm ?? '')) errs.push(notSupported('spec.distinguisherMethod.type', dm, DISTINGUISHERS));
  (spec.rules ?? []).forEach((r, i) => errs.push(...validateRule(r, index('spec.rules', i))));
  return errs;
}

export function validateFlowSchemaUpdate(fs: FlowSchema, old: FlowSchema): FieldError[] {
  return [...validateObjectMetaUpdate(fs.metadata, old.metadata), ...validateFlowSchema(fs).filter((e) => !e.field.startsWith('metadata'))];
}

const percent = (v: number | undefined, field: string) => (v !== undefined && (v < 0 || v > 100) ? [invalid(field, v, 'must be between 0 and 100, inclusive')] : []);

export function validatePriorityLevelConfiguration(pl: PriorityLevelConfiguration): FieldError[] {
  const errs = validateObjectMeta(pl.metadata, false, nameIsDNSSubdomain);
  const spec = pl.spec;
  if (!spec) return [...errs, required('spec')];
  if (!LEVEL_TYPES.includes(spec.type)) return [...errs, notSupported('spec.type', spec.type, LEVEL_TYPES)];
  if (spec.type === 'Exempt') {
    if (spec.limited) errs.push(invalid('spec.limited', '{}', 'must be nil if the type is not Limited'));
    if ((spec.exempt?.nominalConcurrencyShares ?? 0) < 0) errs.push(invalid('spec.exempt.nominalConcurrencyShares', spec.exempt?.nominalConcurrencyShares, 'must be a non-negative integer'));
    errs.push(...percent(spec.exempt?.lendablePercent, 'spec.exempt.lendablePercent'));
    return errs;
  }
  if (spec.exempt) errs.push(invalid('spec.exempt', '{}', 'must be nil if the type is Limited'));
  const limited = spec.limited;
  if (!limited) return [...errs, required('spec.limited', 'must not be empty when type is Limited')];
  if ((limited.nominalConcurrencyShares ?? 30) < 0) errs.push(invalid('spec.limited.nominalConcurrencyShares', limited.nominalConcurrencyShares, 'must be a non-negative integer'));
  errs.push(...percent(limited.lendablePercent, 'spec.limited.lendablePercent'));
  const lr = limited.limitResponse;
  if (!lr || !LIMIT_RESPONSES.includes(lr.type)) errs.push(notSupported('spec.limited.limitResponse.type', lr?.type, LIMIT_RESPONSES));
  else if (lr.type === 'Reject' && lr.queuing) errs.push(invalid('spec.limited.limitResponse.queuing', '{}', 'must be nil if limited.limitResponse.type is not Limited'));
  else if (lr.type === 'Queue') {
    const q = lr.queuing;
    if (!q) errs.push(required('spec.limited.limitResponse.queuing', 'must not be empty if limited.limitResponse.type is Limited'));
    else {
      const p = 'spec.limited.limitResponse.queuing';
      if ((q.queues ?? 64) <= 0) errs.push(invalid(`${p}.queues`, q.queues, 'must be positive'));
      if ((q.queueLengthLimit ?? 50) <= 0) errs.push(invalid(`${p}.queueLengthLimit`, q.queueLengthLimit, 'must be positive'));
      const hand = q.handSize ?? 8;
      if (hand <= 0) errs.push(invalid(`${p}.handSize`, hand, 'must be positive'));
      else if (hand > (q.queues ?? 64)) errs.push(invalid(`${p}.handSize`, hand, `should not be greater than queues (${q.queues ?? 64})`));
    }
  }
  return errs;
}

export function validatePriorityLevelConfigurationUpdate(pl: PriorityLevelConfiguration, old: PriorityLevelConfiguration): FieldError[] {
  return [...validateObjectMetaUpdate(pl.metadata, old.metadata), ...validatePriorityLevelConfiguration(pl).filter((e) => !e.field.startsWith('metadata'))];
}
