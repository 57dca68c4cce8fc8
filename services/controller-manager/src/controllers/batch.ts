// The batch controllers (upstream: startJobController, startCronJobController,
// startTTLAfterFinishedController), registered with their upstream names.
// Their worker counts are upstream's flag defaults (--concurrent-job-syncs,
// --concurrent-cron-job-syncs, --concurrent-ttl-after-finished-syncs: 5).

import { CronJobController } from './cronjob/cronjob-controller.js';
import { JobController } from './job/job-controller.js';
import type { ControllerRegistry } from './registry.js';
import { TtlAfterFinishedController } from './ttlafterfinished/ttl-after-finished-controller.js';

export function registerBatchControllers(r: ControllerRegistry): ControllerRegistry {
  return r
    .register({ name: 'job-controller', aliases: ['job'], serviceAccount: 'job-controller', workers: () => 5, create: (ctx) => new JobController(ctx) })
    .register({ name: 'cronjob-controller', aliases: ['cronjob'], serviceAccount: 'cronjob-controller', workers: () => 5, create: (ctx) => new CronJobController(ctx) })
    .register({
      name: 'ttl-after-finished-controller',
      aliases: ['ttl-after-finished'],
      serviceAccount: 'ttl-after-finished-controller',
      workers: () => 5,
      create: (ctx) => new TtlAfterFinishedController(ctx),
    });
}
