// apps/v1 defaulting (pkg/apis/apps/v1/defaults.go) plus the pod template's core defaults.
import { defaultPodTemplate } from '../../core/v1/defaults.js';
import type { DaemonSet, Deployment, ReplicaSet } from './types.js';

/** SetDefaults_Deployment: replicas 1, RollingUpdate 25%/25%, history 10, progress deadline 600 s. */
export function defaultDeployment(d: Deployment): void {
  if (!d.spec) return;
  const spec = d.spec;
  if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  const strategy = (spec.strategy ??= {});
  if (!strategy.type) strategy.type = 'RollingUpdate';
  if (strategy.type === 'RollingUpdate') {
    const ru = (strategy.rollingUpdate ??= {});
    if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = '25%';
    if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = '25%';
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  if (spec.progressDeadlineSeconds === undefined || spec.progressDeadlineSeconds === null) spec.progressDeadlineSeconds = 600;
  defaultPodTemplate(spec.template);
}

/** SetDefaults_ReplicaSet: replicas 1. */
export function defaultReplicaSet(rs: ReplicaSet): void {
  if (!rs.spec) return;
  if (rs.spec.replicas === undefined || rs.spec.replicas === null) rs.spec.replicas = 1;
  defaultPodTemplate(rs.spec.template);
}

/** SetDefaults_DaemonSet: RollingUpdate maxUnavailable 1 maxSurge 0, history 10. */
export function defaultDaemonSet(ds: DaemonSet): void {
  if (!ds.spec) return;
  const spec = ds.spec;
  const us = (spec.updateStrategy ??= {});
  if (!us.type) us.type = 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru = (us.rollingUpdate ??= {});
    if (ru.maxUnavailable === undefined || ru.maxUnavailable === null) ru.maxUnavailable = 1;
    if (ru.maxSurge === undefined || ru.maxSurge === null) ru.maxSurge = 0;
  }
  if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
  defaultPodTemplate(spec.template);
}
