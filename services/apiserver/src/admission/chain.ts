// The admission chain: authorization, mutating plugins, validating plugins
// (upstream: the handler chain's WithAuthorization + admission.chainAdmissionHandler).

import { forbidden } from '@kubelab/api';
import type { AdmissionAttributes, AdmissionPlugin, Authorizer, Decision } from './types.js';

export class AdmissionChain {
  constructor(
    private readonly authorizer: Authorizer,
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
   * One write's admission in upstream's order: authorization, the mutating
   * plugins, `validateObject` (the registry's field validation), the
   * validating plugins. `mutate: false` skips the mutating phase (deletes).
   * Returns undefined when every step finished synchronously — as all of
   * kubelab's plugins do — so a write costs no promise or microtask here.
   */
  review(a: AdmissionAttributes, validateObject: (() => void) | undefined, mutate = true): Promise<void> | undefined {
    const d = this.authorizer.authorize(a);
    if (d instanceof Promise) {
      return d.then((decision) => {
        this.checkDecision(a, decision);
        return this.continueFrom(a, 0, validateObject, mutate);
      });
    }
    this.checkDecision(a, d);
    return this.continueFrom(a, 0, validateObject, mutate);
  }

  private checkDecision(a: AdmissionAttributes, d: Decision): void {
    if (d.allowed) return;
    const user = a.ctx.user?.name ?? 'system:anonymous';
    throw forbidden(a.info, a.name, `User "${user}" cannot ${a.operation.toLowerCase()} resource "${a.info.resource}"${d.reason ? `: ${d.reason}` : ''}`);
  }

  /** Steps from `step` on: the mutating plugins, then the object's validation, then the validating plugins. */
  private continueFrom(a: AdmissionAttributes, step: number, validateObject: (() => void) | undefined, mutate: boolean): Promise<void> | undefined {
    const m = mutate ? this.mutating.length : 0;
    const last = m + this.validating.length;
    for (let k = step; k <= last; k++) {
      let r: void | Promise<void>;
      if (k < m) r = this.mutating[k]!.admit?.(a);
      else if (k === m) r = validateObject?.();
      else r = this.validating[k - m - 1]!.validate?.(a);
      if (r instanceof Promise) return r.then(() => this.continueFrom(a, k + 1, validateObject, mutate));
    }
    return undefined;
  }
}
