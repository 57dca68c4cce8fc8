// The admission chain: mutating plugins, validating plugins (upstream:
// admission.chainAdmissionHandler). Authorization ran before, as a request
// filter (authorization/filter.ts), as upstream's WithAuthorization does.

import type { KubeObject, ResourceInfo } from '@kubelab/api';
import type { RequestContext } from '../registry/interface.js';
import { admissionAttributes, AdmissionHooks, type AdmissionAttributes, type AdmissionPlugin } from './types.js';

export class AdmissionChain {
  constructor(
    readonly mutating: readonly AdmissionPlugin[],
    readonly validating: readonly AdmissionPlugin[],
  ) {
    const names = new Set<string>();
    for (const p of [...mutating, ...validating]) {
      if (names.has(p.name) && !(mutating.includes(p) && validating.includes(p))) throw new Error(`admission plugin ${p.name} registered twice`);
      names.add(p.name);
    }
  }

  /**
   * One write's admission in upstream's order: the mutating
   * plugins, `validateObject` (the registry's field validation), the
   * validating plugins. Deletes pass both phases too, with the stored
   * object as oldObject (upstream: AdmissionToValidateObjectDeleteFunc).
   * Returns undefined when every step finished synchronously — as all of
   * kubelab's plugins do — so a write costs no promise or microtask here.
   */
  review(a: AdmissionAttributes, validateObject: (() => void) | undefined): Promise<void> | undefined {
    return this.continueFrom(a, 0, validateObject);
  }

  /**
   * The admission of a create on a subresource that stores nothing itself
   * (pods/eviction, serviceaccounts/token): both phases on the request's
   * object, as upstream's create handler runs them before the REST's Create.
   */
  async reviewSubresourceCreate(info: ResourceInfo, namespace: string, name: string, subresource: string, object: KubeObject, ctx: RequestContext): Promise<void> {
    const a = admissionAttributes('CREATE', info, namespace, name, ctx, new AdmissionHooks(), object, undefined, subresource);
    await this.review(a, undefined);
  }

  /** Steps from `step` on: the mutating plugins, then the object's validation, then the validating plugins. */
  private continueFrom(a: AdmissionAttributes, step: number, validateObject: (() => void) | undefined): Promise<void> | undefined {
    const m = this.mutating.length;
    const last = m + this.validating.length;
    for (let k = step; k <= last; k++) {
      let r: void | Promise<void>;
      if (k < m) r = this.mutating[k]!.admit?.(a);
      else if (k === m) r = validateObject?.();
      else r = this.validating[k - m - 1]!.validate?.(a);
      if (r instanceof Promise) return r.then(() => this.continueFrom(a, k + 1, validateObject));
    }
    return undefined;
  }
}
