// The agent's data path in the local runner, where nodes share the host's
// network namespace and the policy chains are only rendered: after each sync
// it writes every pod's resolved allow lists (resolve.ts, decisionInput) to
// policies.json in the node's socket-LB directory, which the runtime's
// connect hook consults after the Service→endpoint choice (as the filter
// chains see a packet after kube-proxy's DNAT). Written by rename, so a
// reader never sees half a file.

import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicyDecisionInput } from './resolve.js';

export const POLICIES_FILE = 'policies.json';

/** Writes the allow lists; false when unchanged since the last write. */
export function writePolicyDecisionInput(dir: string, input: PolicyDecisionInput, last: { text: string }): boolean {
  const text = JSON.stringify(input);
  if (text === last.text) return false;
  mkdirSync(dir, { recursive: true });
  const path = join(dir, POLICIES_FILE);
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  last.text = text;
  return true;
}
