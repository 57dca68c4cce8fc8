// `kubelab up --node-monitor-grace-period=20s` must reach the controller-manager:
// every binary reports the flags it owns (KUBELAB_PRINT_FLAGS=1) and the runner
// routes each upstream flag to the components that declare it.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface RoutedFlags {
  /** component service folder → args for it */
  byService: Map<string, string[]>;
}

export async function flagOwners(entries: Map<string, string>): Promise<Map<string, Set<string>>> {
  const owners = new Map<string, Set<string>>();
  await Promise.all(
    [...entries].map(async ([service, entry]) => {
      try {
        // Seven binaries load at once: ~3 s each on an idle machine, over 15 s on a busy two-core one (seen at load 12).
        const { stdout } = await run(process.execPath, [entry], { env: { ...process.env, KUBELAB_PRINT_FLAGS: '1' }, timeout: 60_000 });
        const { flags } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { flags?: string[] };
        for (const f of flags ?? []) {
          if (!owners.has(f)) owners.set(f, new Set());
          owners.get(f)!.add(service);
        }
      } catch {
        // A binary that cannot report flags gets none routed to it (the bound is generous: a loaded machine starts node slowly).
      }
    }),
  );
  return owners;
}

/** Splits `--name=value` / `--name value` args by owner; unknown flags are an error. */
export function routeFlags(args: string[], owners: Map<string, Set<string>>): RoutedFlags {
  const byService = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"`);
    const body = arg.slice(2);
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    let value: string | undefined = eq >= 0 ? body.slice(eq + 1) : undefined;
    if (value === undefined && args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) value = args[++i];
    const who = owners.get(name);
    if (!who) throw new Error(`unknown flag: --${name} (no kubelab component declares it)`);
    for (const svc of who) {
      if (!byService.has(svc)) byService.set(svc, []);
      byService.get(svc)!.push(value === undefined ? `--${name}` : `--${name}=${value}`);
    }
  }
  return { byService };
}
