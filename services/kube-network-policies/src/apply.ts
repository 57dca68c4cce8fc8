// Applying a rendered ruleset: one `iptables-restore --noflush` per sync, so
// the node never holds half a policy. The kernel's filter table is read first
// to find our chains that are no longer rendered and the jumps already there.

import { mustRun, type CommandRunner } from '@kubelab/component-base';
import { parseSaved, policyPartOfSave, restoreInput, type PolicyRuleset } from './render.js';

export interface ApplyResult {
  /** The restore input that was applied. */
  script: string;
  stale: string[];
}

/** Undefined when iptables works in this network namespace, else why rules are rendered only. */
export async function probeIptables(runner: CommandRunner): Promise<string | undefined> {
  const r = await runner.run(['iptables-save', '-t', 'filter']);
  if (r.code === 0) return undefined;
  return `\`iptables-save -t filter\` failed (${(r.stderr || r.stdout).trim().split('\n')[0] || `exit ${r.code}`}): no NET_ADMIN in this network namespace?`;
}

export async function applyRuleset(runner: CommandRunner, rs: PolicyRuleset): Promise<ApplyResult> {
  const saved = parseSaved(await mustRun(runner, ['iptables-save', '-t', 'filter']));
  const active = new Set(rs.chains.map((c) => c.name));
  const stale = saved.chains.filter((c) => !active.has(c));
  const script = restoreInput(rs, stale, saved.jumps);
  await mustRun(runner, ['iptables-restore', '--noflush'], script);
  return { script, stale };
}

/** What the kernel holds of ours, as /rules shows it in apply mode. */
export async function readBack(runner: CommandRunner): Promise<string> {
  return policyPartOfSave(await mustRun(runner, ['iptables-save', '-t', 'filter']));
}
