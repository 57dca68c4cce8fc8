// apps/v1 StatefulSet defaulting (pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet).
import { defaultPodTemplate } from '../../core/v1/defaults.js';
import type { StatefulSet } from './types.js';

const unset = (v: unknown): boolean => v === undefined || v === null;

/** OrderedReady, RollingUpdate with partition 0, Retain/Retain claims, replicas 1, history 10, minReadySeconds 0. */
export function defaultStatefulSet(sts: StatefulSet): void {
  if (!sts.spec) return;
  const spec = sts.spec;
  if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
  const us = (spec.updateStrategy ??= {});
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru = (us.rollingUpdate ??= {});
    if (unset(ru.partition)) ru.partition = 0;
    // maxUnavailable stays unset: upstream defaults it to 1 only under the MaxUnavailableStatefulSet gate (alpha).
  }
  const policy = (spec.persistentVolumeClaimRetentionPolicy ??= {});
  if (!policy.whenDeleted) policy.whenDeleted = 'Retain';
  if (!policy.whenScaled) policy.whenScaled = 'Retain';
  if (unset(spec.replicas)) spec.replicas = 1;
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  if (unset(spec.minReadySeconds)) spec.minReadySeconds = 0;
  // SetDefaults_PersistentVolumeClaim on each claim template, as the embedded object prints upstream.
  for (const t of spec.volumeClaimTemplates ?? []) {
    t.apiVersion ??= 'v1';
    t.kind ??= 'PersistentVolumeClaim';
    const claimSpec = (t.spec ??= {});
    claimSpec.volumeMode ??= 'Filesystem';
    const status = ((t.status as Record<string, unknown> | undefined) ??= {});
    status.phase ??= 'Pending';
  }
  defaultPodTemplate(spec.template);
}
