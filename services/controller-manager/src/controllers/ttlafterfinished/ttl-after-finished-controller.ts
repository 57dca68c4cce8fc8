// The TTL-after-finished controller (pkg/controller/ttlafterfinished):
// deletes a finished job ttlSecondsAfterFinished after it finished, with
// foreground propagation so its pods go first. The job is read afresh before
// the delete, and the delete is conditional on that version, so a job whose
// TTL was just changed survives.

import { isNotFound, type Job } from '@kubelab/api';
import { metaNamespaceKey, splitMetaNamespaceKey, type Lister } from '@kubelab/client';
import { QueueController, queueOptions, type ControllerContext } from '../../util/controller.js';
import { ttlTimeLeft } from './decisions.js';

export class TtlAfterFinishedController extends QueueController {
  private readonly jobLister: Lister<Job>;

  constructor(private readonly ctx: ControllerContext) {
    super('ttl_jobs_to_delete', ctx.logger, queueOptions(ctx));
    const jobs = ctx.informers.batch.jobs();
    this.jobLister = jobs.lister();
    const add = (j: Job) => {
      if (ttlTimeLeft(j, this.clock.now()) !== undefined) this.enqueue(metaNamespaceKey(j));
    };
    jobs.addEventHandler({ onAdd: add, onUpdate: (_o, j) => add(j) });
  }

  async sync(key: string): Promise<void> {
    const { namespace, name } = splitMetaNamespaceKey(key);
    const cached = this.jobLister.namespace(namespace).get(name);
    if (!cached) return;
    const left = ttlTimeLeft(cached, this.clock.now());
    if (left === undefined) return;
    if (left > 0) {
      this.queue.addAfter(key, left);
      return;
    }
    // The cache may be behind a TTL change: decide again on the stored job.
    let fresh: Job;
    try {
      fresh = await this.ctx.clientset.batch.jobs(namespace).get(name);
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const freshLeft = ttlTimeLeft(fresh, this.clock.now());
    if (freshLeft === undefined) return;
    if (freshLeft > 0) {
      this.queue.addAfter(key, freshLeft);
      return;
    }
    this.log.info('Cleaning up Job', { job: key });
    try {
      await this.ctx.clientset.batch.jobs(namespace).delete(name, {
        propagationPolicy: 'Foreground',
        preconditions: { ...(fresh.metadata.uid ? { uid: fresh.metadata.uid } : {}), ...(fresh.metadata.resourceVersion ? { resourceVersion: fresh.metadata.resourceVersion } : {}) },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
