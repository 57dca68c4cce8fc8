// Runs code outside any pod's trace. The kubelet hands each sync's span down
// explicitly (the sync context manager); work a sync starts that outlives it
// (probe workers, event and status writes) must not inherit that span.

import { ROOT_CONTEXT, context as otelContext } from '@kubelab/tracing';

/** Runs fn with no active trace context: long-lived loops it starts never inherit a pod's span. */
export function untraced<T>(fn: () => T): T {
  return otelContext.with(ROOT_CONTEXT, fn);
}
