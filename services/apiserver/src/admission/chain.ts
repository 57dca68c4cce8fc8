// The admission chain: authorization, mutating plugins, validating plugins
// (upstream: the handler chain's WithAuthorization + admission.chainAdmissionHandler).

import { forbidden } from '@kubelab/api';
import type { AdmissionAttributes, AdmissionPlugin, Authorizer } from './types.js';

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

  async authorize(a: AdmissionAttributes): Promise<void> {
    const d = await this.authorizer.authorize(a);
    if (!d.allowed) {
      const user = a.ctx.user ?? 'system:anonymous';
      throw forbidden(a.info, a.name, `User "${user}" cannot ${a.operation.toLowerCase()} resource "${a.info.resource}"${d.reason ? `: ${d.reason}` : ''}`);
    }
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    for (const p of this.mutating) if (p.admit) await p.admit(a);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    for (const p of this.validating) if (p.validate) await p.validate(a);
  }
}
