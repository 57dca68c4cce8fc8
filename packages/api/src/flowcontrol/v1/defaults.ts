// SetDefaults for flowcontrol.apiserver.k8s.io/v1 (pkg/apis/flowcontrol/v1/defaults.go).
import type { FlowSchema, PriorityLevelConfiguration } from './types.js';

export function defaultFlowSchema(fs: FlowSchema): void {
  // A precedence of 0 (or none) means the default, 1000.
  if (fs.spec && !fs.spec.matchingPrecedence) fs.spec.matchingPrecedence = 1000;
}

export function defaultPriorityLevelConfiguration(pl: PriorityLevelConfiguration): void {
  const spec = pl.spec;
  if (!spec) return;
  if (spec.type === 'Exempt') {
    spec.exempt ??= {};
    spec.exempt.nominalConcurrencyShares ??= 0;
    spec.exempt.lendablePercent ??= 0;
  }
  if (spec.limited) {
    spec.limited.nominalConcurrencyShares ??= 30;
    spec.limited.lendablePercent ??= 0;
    const q = spec.limited.limitResponse?.type === 'Queue' ? (spec.limited.limitResponse.queuing ??= {}) : undefined;
    if (q) {
      q.queues ||= 64;
      q.handSize ||= 8;
      q.queueLengthLimit ||= 50;
    }
  }
}
