// Idempotent writes of the objects the apiserver keeps itself (bootstrap, the
// endpoint reconciler): a create that finds the object is done, a get that
// finds none says so.

import { isAlreadyExists, isNotFound, type KubeObject } from '@kubelab/api';

/** Runs a create; AlreadyExists counts as done. */
export async function ensure(create: () => Promise<unknown>): Promise<void> {
  try {
    await create();
  } catch (e) {
    if (!isAlreadyExists(e)) throw e;
  }
}

/** Runs a get; NotFound is undefined. */
export async function getOrUndefined(f: () => Promise<KubeObject>): Promise<KubeObject | undefined> {
  try {
    return await f();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}
