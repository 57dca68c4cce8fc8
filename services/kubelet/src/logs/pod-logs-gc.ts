// Pod log directories of pods that are gone (upstream kuberuntime containerGC's
// evictPodLogsDirectories, run every ContainerGCPeriod): /var/log/pods/<ns>_<name>_<uid>
// outlives the pod's containers, so the kubelet removes it once no source wants the pod
// and the runtime holds nothing of it.

import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Upstream ContainerGCPeriod. */
export const CONTAINER_GC_PERIOD_MS = 60_000;

/** `<namespace>_<name>_<uid>` → uid (upstream parsePodUIDFromLogsDirectory: what follows the last `_`). */
export function podUidFromLogsDirectory(name: string): string {
  return name.slice(name.lastIndexOf('_') + 1);
}

/** Removes the directories under root whose pod `keep` does not want; returns their names. */
export async function evictPodLogsDirectories(root: string, keep: (uid: string) => boolean): Promise<string[]> {
  const names = await readdir(root).catch(() => [] as string[]);
  const gone = names.filter((n) => n.includes('_') && !keep(podUidFromLogsDirectory(n)));
  for (const n of gone) await rm(join(root, n), { recursive: true, force: true });
  return gone;
}
