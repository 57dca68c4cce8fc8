// The schema of batch/v1 Job and CronJob (k8s.io/api/batch/v1 types.go),
// numbered as its generated.proto: kubectl create job/cronjob send protobuf.

import { cond, top, type TypeDef } from './definition.js';

export const BATCH_TYPES: Record<string, TypeDef> = {
  Job: {
    group: 'batch',
    protobuf: true,
    description: 'A Job runs pods until a number of them have completed successfully.',
    fields: top({ spec: ['JobSpec', 'The desired behaviour of the job.', { protobuf: 2 }], status: ['JobStatus', 'The observed state of the job.', { protobuf: 3 }] }),
  },
  JobSpec: {
    group: 'batch',
    description: 'How a job runs its pods.',
    fields: {
      parallelism: ['int32', 'Pods to run at once. Defaults to 1.', { protobuf: 1, keepZero: true }],
      completions: ['int32', 'Successful pods that complete the job; unset: any one success completes it.', { protobuf: 2, keepZero: true }],
      activeDeadlineSeconds: ['int64', 'Seconds the job may be active before the system fails it (DeadlineExceeded).', { protobuf: 3, keepZero: true }],
      podFailurePolicy: ['PodFailurePolicy', 'How failed pods count towards backoffLimit, or fail the job at once.', { protobuf: 11 }],
      successPolicy: ['SuccessPolicy', 'When an Indexed job may be declared succeeded before all indexes succeed.', { protobuf: 16 }],
      backoffLimit: ['int32', 'Retries before the job is marked failed. Defaults to 6.', { protobuf: 7, keepZero: true }],
      backoffLimitPerIndex: ['int32', 'Retries per index of an Indexed job.', { protobuf: 12, keepZero: true }],
      maxFailedIndexes: ['int32', 'Failed indexes before the Indexed job fails.', { protobuf: 13, keepZero: true }],
      selector: ['LabelSelector', 'Selects the pods of the job; generated unless manualSelector is true.', { protobuf: 4 }],
      manualSelector: ['boolean', 'The selector was written by the user rather than generated.', { protobuf: 5, keepZero: true }],
      template: ['PodTemplateSpec', 'The pods to run; restartPolicy Never or OnFailure.', { required: true, protobuf: 6 }],
      ttlSecondsAfterFinished: ['int32', 'Seconds after the job finished when it is deleted.', { protobuf: 8, keepZero: true }],
      completionMode: ['string', 'NonIndexed (default) or Indexed.', { protobuf: 9, keepZero: true }],
      suspend: ['boolean', 'Suspend the job: no pods are created, running ones are deleted.', { protobuf: 10, keepZero: true }],
      podReplacementPolicy: ['string', 'When a replacement pod is created: TerminatingOrFailed or Failed.', { protobuf: 14, keepZero: true }],
      managedBy: ['string', 'The controller that reconciles the job, when not the built-in one.', { protobuf: 15, keepZero: true }],
    },
  },
  PodFailurePolicy: {
    group: 'batch',
    description: 'Rules matched against a failed pod, in order.',
    fields: { rules: ['[]PodFailurePolicyRule', 'The rules; the first match decides.', { required: true, listType: 'atomic', protobuf: 1 }] },
  },
  PodFailurePolicyRule: {
    group: 'batch',
    description: 'An action for failed pods matching exit codes or pod conditions.',
    fields: {
      action: ['string', 'FailJob, FailIndex, Ignore or Count.', { required: true, protobuf: 1 }],
      onExitCodes: ['PodFailurePolicyOnExitCodesRequirement', 'Exit codes of the containers to match.', { protobuf: 2 }],
      onPodConditions: ['[]PodFailurePolicyOnPodConditionsPattern', 'Pod conditions to match.', { listType: 'atomic', protobuf: 3 }],
    },
  },
  PodFailurePolicyOnExitCodesRequirement: {
    group: 'batch',
    description: 'Container exit codes a rule matches.',
    fields: {
      containerName: ['string', 'Only this container; unset: any container.', { protobuf: 1, keepZero: true }],
      operator: ['string', 'In or NotIn.', { required: true, protobuf: 2 }],
      values: ['[]int32', 'The exit codes.', { required: true, listType: 'set', protobuf: 3 }],
    },
  },
  PodFailurePolicyOnPodConditionsPattern: {
    group: 'batch',
    description: 'A pod condition a rule matches.',
    fields: { type: ['string', 'The pod condition type.', { required: true, protobuf: 1 }], status: ['string', 'The status to match. Defaults to True.', { protobuf: 2 }] },
  },
  SuccessPolicy: {
    group: 'batch',
    description: 'When an Indexed job may be declared succeeded.',
    fields: { rules: ['[]SuccessPolicyRule', 'Any rule met declares success.', { required: true, listType: 'atomic', protobuf: 1 }] },
  },
  SuccessPolicyRule: {
    group: 'batch',
    description: 'A set of indexes, or a count of them, that must succeed.',
    fields: {
      succeededIndexes: ['string', 'Indexes that must succeed, e.g. "1,3-5".', { protobuf: 1, keepZero: true }],
      succeededCount: ['int32', 'How many of succeededIndexes must succeed.', { protobuf: 2, keepZero: true }],
    },
  },
  JobStatus: {
    group: 'batch',
    description: 'The observed state of a job.',
    fields: {
      conditions: ['[]JobCondition', 'Complete, Failed, Suspended, SuccessCriteriaMet, FailureTarget.', { patchStrategy: 'merge', patchMergeKey: 'type', listType: 'atomic', protobuf: 1 }],
      startTime: ['Time', 'When the controller started processing the job.', { protobuf: 2 }],
      completionTime: ['Time', 'When the job completed.', { protobuf: 3 }],
      active: ['int32', 'Pending and running pods.', { protobuf: 4 }],
      succeeded: ['int32', 'Pods that reached phase Succeeded.', { protobuf: 5 }],
      failed: ['int32', 'Pods that reached phase Failed.', { protobuf: 6 }],
      terminating: ['int32', 'Pods terminating (deletionTimestamp set, not yet terminal).', { protobuf: 11 }],
      completedIndexes: ['string', 'Completed indexes of an Indexed job, e.g. "1,3-5".', { protobuf: 7 }],
      failedIndexes: ['string', 'Failed indexes when backoffLimitPerIndex is set.', { protobuf: 10 }],
      uncountedTerminatedPods: ['UncountedTerminatedPods', 'Finished pods not yet counted in succeeded/failed.', { protobuf: 8 }],
      ready: ['int32', 'Active pods with the Ready condition.', { protobuf: 9 }],
    },
  },
  JobCondition: {
    group: 'batch',
    description: 'A job condition.',
    fields: { ...cond('job'), lastProbeTime: ['Time', 'Last time the condition was checked.'] },
  },
  UncountedTerminatedPods: {
    group: 'batch',
    description: 'UIDs of finished pods the controller has not yet counted in the status.',
    fields: {
      succeeded: ['[]string', 'UIDs of succeeded pods.', { listType: 'set', protobuf: 1 }],
      failed: ['[]string', 'UIDs of failed pods.', { listType: 'set', protobuf: 2 }],
    },
  },
  CronJob: {
    group: 'batch',
    protobuf: true,
    description: 'A CronJob creates Jobs on a repeating schedule.',
    fields: top({ spec: ['CronJobSpec', 'The schedule and the job to create.', { protobuf: 2 }], status: ['CronJobStatus', 'The observed state of the cron job.', { protobuf: 3 }] }),
  },
  CronJobSpec: {
    group: 'batch',
    description: 'A schedule and the job it creates.',
    fields: {
      schedule: ['string', 'The schedule in Cron format.', { required: true, protobuf: 1 }],
      timeZone: ['string', "The time zone of the schedule (IANA name); unset: the controller-manager's.", { protobuf: 8, keepZero: true }],
      startingDeadlineSeconds: ['int64', 'Seconds after its time a missed run may still start.', { protobuf: 2, keepZero: true }],
      concurrencyPolicy: ['string', 'Allow (default), Forbid or Replace: what a run does while the last still runs.', { protobuf: 3 }],
      suspend: ['boolean', 'Suspend subsequent runs. Defaults to false.', { protobuf: 4, keepZero: true }],
      jobTemplate: ['JobTemplateSpec', 'The job to create at each run.', { required: true, protobuf: 5 }],
      successfulJobsHistoryLimit: ['int32', 'Successful jobs to keep. Defaults to 3.', { protobuf: 6, keepZero: true }],
      failedJobsHistoryLimit: ['int32', 'Failed jobs to keep. Defaults to 1.', { protobuf: 7, keepZero: true }],
    },
  },
  JobTemplateSpec: {
    group: 'batch',
    description: 'The job a cron job creates.',
    fields: { metadata: ['ObjectMeta', 'Metadata of the jobs created.', { protobuf: 1 }], spec: ['JobSpec', 'The spec of the jobs created.', { protobuf: 2 }] },
  },
  CronJobStatus: {
    group: 'batch',
    description: 'The observed state of a cron job.',
    fields: {
      active: ['[]ObjectReference', 'The jobs running now.', { listType: 'atomic', protobuf: 1 }],
      lastScheduleTime: ['Time', 'When a job was last scheduled.', { protobuf: 4 }],
      lastSuccessfulTime: ['Time', 'When a job last completed successfully.', { protobuf: 5 }],
    },
  },
};
