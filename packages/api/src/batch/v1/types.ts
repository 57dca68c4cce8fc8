// batch/v1 (k8s.io/api/batch/v1): Job and CronJob with upstream field names.
import type { KubeList, KubeObject, LabelSelector, ObjectMeta, Time } from '../../meta/types.js';
import type { ConditionStatus, ObjectReference, PodConditionType, PodTemplateSpec } from '../../core/v1/types.js';

export const BATCH_GROUP = 'batch';

/** The labels the Job strategy writes on a Job's pod template (batch/v1 constants, legacy names kept as upstream). */
export const LABEL_CONTROLLER_UID = 'batch.kubernetes.io/controller-uid';
export const LABEL_LEGACY_CONTROLLER_UID = 'controller-uid';
export const LABEL_JOB_NAME = 'batch.kubernetes.io/job-name';
export const LABEL_LEGACY_JOB_NAME = 'job-name';
/** A pod's index in an Indexed Job: annotation, label (1.28+) and the env var fed from it. */
export const JOB_COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const JOB_COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';
/** The finalizer the Job controller keeps on its pods until it has counted them (job tracking with finalizers). */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** The annotation a CronJob's Jobs carry: the time they were scheduled for (RFC 3339). */
export const CRONJOB_SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export type CompletionMode = 'NonIndexed' | 'Indexed';
export type PodReplacementPolicy = 'TerminatingOrFailed' | 'Failed';
export type PodFailurePolicyAction = 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

export interface PodFailurePolicyOnExitCodesRequirement {
  containerName?: string;
  operator: 'In' | 'NotIn';
  values: number[];
}

export interface PodFailurePolicyOnPodConditionsPattern {
  type: PodConditionType;
  status: ConditionStatus;
}

export interface PodFailurePolicyRule {
  action: PodFailurePolicyAction;
  onExitCodes?: PodFailurePolicyOnExitCodesRequirement;
  onPodConditions?: PodFailurePolicyOnPodConditionsPattern[];
}

export interface PodFailurePolicy {
  rules: PodFailurePolicyRule[];
}

export interface SuccessPolicyRule {
  succeededIndexes?: string;
  succeededCount?: number;
}

export interface SuccessPolicy {
  rules: SuccessPolicyRule[];
}

export interface JobSpec {
  parallelism?: number;
  completions?: number;
  activeDeadlineSeconds?: number;
  podFailurePolicy?: PodFailurePolicy;
  successPolicy?: SuccessPolicy;
  backoffLimit?: number;
  backoffLimitPerIndex?: number;
  maxFailedIndexes?: number;
  selector?: LabelSelector;
  manualSelector?: boolean;
  template: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: CompletionMode;
  suspend?: boolean;
  podReplacementPolicy?: PodReplacementPolicy;
  managedBy?: string;
}

/** Job condition types (1.32): the terminal Complete/Failed, their interim SuccessCriteriaMet/FailureTarget, and Suspended. */
export type JobConditionType = 'Complete' | 'Failed' | 'Suspended' | 'FailureTarget' | 'SuccessCriteriaMet';

export interface JobCondition {
  type: JobConditionType;
  status: ConditionStatus;
  lastProbeTime?: Time;
  lastTransitionTime?: Time;
  reason?: string;
  message?: string;
}

export interface UncountedTerminatedPods {
  succeeded?: string[];
  failed?: string[];
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: Time;
  completionTime?: Time;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  failedIndexes?: string;
  uncountedTerminatedPods?: UncountedTerminatedPods;
  ready?: number;
}

export interface Job extends KubeObject {
  apiVersion?: 'batch/v1';
  kind?: 'Job';
  metadata: ObjectMeta;
  spec?: JobSpec;
  status?: JobStatus;
}
export type JobList = KubeList<Job>;

export interface JobTemplateSpec {
  metadata?: ObjectMeta;
  spec?: JobSpec;
}

export interface CronJobSpec {
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: ConcurrencyPolicy;
  suspend?: boolean;
  jobTemplate: JobTemplateSpec;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
}

export interface CronJobStatus {
  active?: ObjectReference[];
  lastScheduleTime?: Time;
  lastSuccessfulTime?: Time;
}

export interface CronJob extends KubeObject {
  apiVersion?: 'batch/v1';
  kind?: 'CronJob';
  metadata: ObjectMeta;
  spec?: CronJobSpec;
  status?: CronJobStatus;
}
export type CronJobList = KubeList<CronJob>;
