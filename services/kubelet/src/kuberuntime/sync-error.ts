// A sync's failed steps in upstream's words (kubecontainer.PodSyncResult.Error):
// `failed to "StartContainer" for "app" with ImagePullBackOff: "Back-off
// pulling image \"nginx:1.25\""` per failed container start, several as Go's
// error aggregate `[a, b]`. The pod worker logs it as "Error syncing pod,
// skipping", the line `journalctl -u kubelet` shows for a pod that cannot start.

import { aggregate } from '../nodestatus/setters.js';
import type { SyncReason } from '../status/generate.js';

/** The error text of a sync's container starts, or undefined when none failed. */
export function podSyncErrorText(reasons: ReadonlyMap<string, SyncReason | null>): string | undefined {
  const errs: string[] = [];
  // Go's `failed to %q for %q with %v: %q`; JSON quoting is Go's %q for printable text.
  for (const [name, r] of reasons) if (r) errs.push(`failed to "StartContainer" for ${JSON.stringify(name)} with ${r.reason}: ${JSON.stringify(r.message)}`);
  return errs.length === 0 ? undefined : aggregate(errs);
}
