// A resource answered on create and never stored (upstream: a REST storage
// implementing only rest.Creater, as the review APIs do): every other verb
// is 405, and a request without a user is a 400.

import { badRequest, lookupResource, methodNotAllowed, type KubeObject, type ResourceInfo } from '@kubelab/api';
import type { UserInfo } from '@kubelab/api';
import type { RequestContext, ResourceStore } from './interface.js';

/** The RESOURCES entry of a served resource (a missing one is a programming error). */
export function info(group: string, version: string, resource: string): ResourceInfo {
  const i = lookupResource(group, version, resource);
  if (!i) throw new Error(`${resource}.${group}/${version} is not in RESOURCES`);
  return i;
}

/** Upstream's 405 for a verb the resource's storage does not implement. */
export const notAllowed = () => methodNotAllowed('the server does not allow this method on the requested resource');

export function createOnly(i: ResourceInfo, create: (namespace: string | undefined, obj: KubeObject, user: UserInfo) => KubeObject | Promise<KubeObject>): ResourceStore {
  const refuse = (): never => {
    throw notAllowed();
  };
  const reject = () => Promise.reject(notAllowed());
  return {
    info: i,
    get: reject,
    list: reject,
    watch: refuse,
    update: reject,
    patch: reject,
    delete: reject,
    create: async (namespace: string | undefined, obj: KubeObject, ctx: RequestContext) => {
      if (!ctx.user) throw badRequest('no user present on request');
      return create(namespace, obj, ctx.user);
    },
  };
}
