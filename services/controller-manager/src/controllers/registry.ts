// The controllers this manager runs, in one list with their upstream names
// (the values --controllers takes) and how many workers each gets.

import type { Controller, ControllerContext } from '../util/controller.js';
import type { ControllerManagerConfig } from '../options.js';

export interface ControllerDescriptor {
  /** Upstream name, e.g. `deployment-controller`. */
  name: string;
  /** Older names --controllers also accepts (`deployment`). */
  aliases: string[];
  /**
   * The ServiceAccount (kube-system) whose credentials the controller writes
   * with under --use-service-account-credentials, upstream's name (bound to
   * `system:controller:<name>`); absent: the manager's own identity.
   */
  serviceAccount?: string;
  workers(c: ControllerManagerConfig): number;
  /** May be off for reasons of config (e.g. --allocate-node-cidrs=false). */
  enabled?(c: ControllerManagerConfig): boolean;
  /** Not in `*`: runs only when named (upstream ControllerDescriptor.IsDisabledByDefault, e.g. tokencleaner). */
  disabledByDefault?: true;
  create(ctx: ControllerContext): Controller;
}

export class ControllerRegistry {
  private readonly byName = new Map<string, ControllerDescriptor>();

  register(d: ControllerDescriptor): this {
    for (const n of [d.name, ...d.aliases]) {
      if (this.byName.has(n)) throw new Error(`controller "${n}" registered twice`);
      this.byName.set(n, d);
    }
    return this;
  }

  /** Every descriptor, in registration order. */
  all(): ControllerDescriptor[] {
    return [...new Set(this.byName.values())];
  }

  /** Which controllers --controllers selects (`*`, `name`, `-name`); unknown names are an error. */
  select(spec: readonly string[]): ControllerDescriptor[] {
    const on = new Set<ControllerDescriptor>();
    const off = new Set<ControllerDescriptor>();
    let star = false;
    for (const raw of spec) {
      const s = raw.trim();
      if (!s) continue;
      if (s === '*') {
        star = true;
        continue;
      }
      const neg = s.startsWith('-');
      const d = this.byName.get(neg ? s.slice(1) : s);
      if (!d) throw new Error(`"${neg ? s.slice(1) : s}" is not in the list of known controllers`);
      (neg ? off : on).add(d);
    }
    return this.all().filter((d) => !off.has(d) && ((star && !d.disabledByDefault) || on.has(d)));
  }
}
