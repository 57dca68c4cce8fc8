// Job and CronJob rows (upstream printers.go: printJob with 1.32's Status
// column, printCronJob).

import { humanDuration, since } from './duration.js';
import { selectorString } from './labels.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

const WIDE_COLUMNS = [
  col('Containers', 'string', 'Names of each container in the template.', 1),
  col('Images', 'string', 'Images referenced by each container in the template.', 1),
  col('Selector', 'string', 'A label query over the pods the job should run.', 1),
];

function wideCells(jobSpec: Obj | undefined): string[] {
  const cs: Obj[] = jobSpec?.template?.spec?.containers ?? [];
  return [cs.map((c) => c.name).join(','), cs.map((c) => c.image).join(','), selectorString(jobSpec?.selector) || '<none>'];
}

const hasCondition = (job: Obj, type: string): boolean => (job.status?.conditions ?? []).some((c: Obj) => c.type === type && c.status === 'True');

/** The STATUS cell: the terminal conditions first, then a deletion, then the interim ones. */
function jobStatus(job: Obj): string {
  if (hasCondition(job, 'Complete')) return 'Complete';
  if (hasCondition(job, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(job, 'Suspended')) return 'Suspended';
  if (hasCondition(job, 'FailureTarget')) return 'FailureTarget';
  if (hasCondition(job, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function completions(job: Obj): string {
  const succeeded = job.status?.succeeded ?? 0;
  const c = job.spec?.completions;
  const p = job.spec?.parallelism;
  if (typeof c === 'number') return `${succeeded}/${c}`;
  if (typeof p === 'number' && p > 1) return `${succeeded}/1 of ${p}`;
  return `${succeeded}/1`;
}

function duration(job: Obj, now: Date): string {
  const start = job.status?.startTime ? Date.parse(job.status.startTime) : NaN;
  if (Number.isNaN(start)) return '';
  const end = job.status?.completionTime ? Date.parse(job.status.completionTime) : now.getTime();
  return humanDuration(end - start);
}

export const jobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Status', 'string', 'Status of the job.'),
    col('Completions', 'string', 'The number of pods which reached phase Succeeded.'),
    col('Duration', 'string', 'Time required to complete the job.'),
    AGE_COLUMN,
    ...WIDE_COLUMNS,
  ],
  cells(job, now) {
    return [job.metadata?.name, jobStatus(job), completions(job), duration(job, now), since(job.metadata?.creationTimestamp, now), ...wideCells(job.spec)];
  },
};

export const cronJobPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Schedule', 'string', 'The schedule in Cron format.'),
    col('Timezone', 'string', 'The time zone name for the given schedule.'),
    col('Suspend', 'boolean', 'Whether subsequent executions are suspended.'),
    col('Active', 'integer', 'A list of pointers to currently running jobs.'),
    col('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
    AGE_COLUMN,
    ...WIDE_COLUMNS,
  ],
  cells(cj, now) {
    const suspend = cj.spec?.suspend;
    return [
      cj.metadata?.name,
      cj.spec?.schedule ?? '',
      cj.spec?.timeZone ?? '<none>',
      typeof suspend === 'boolean' ? (suspend ? 'True' : 'False') : '<unset>',
      (cj.status?.active ?? []).length,
      cj.status?.lastScheduleTime ? since(cj.status.lastScheduleTime, now) : '<none>',
      since(cj.metadata?.creationTimestamp, now),
      ...wideCells(cj.spec?.jobTemplate?.spec),
    ];
  },
};
