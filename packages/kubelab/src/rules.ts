// `kubelab rules`: the ruleset kube-proxy on one node of the local cluster
// currently holds (iptables-save, nft list ruleset or ipvsadm -Ln form),
// read from its /rules endpoint.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readClusterInfo, stateDirFrom } from './paths.js';
import { nodePorts } from './topology.js';

export interface RulesArgs {
  node: string;
  stateDir: string;
}

export function parseRulesArgs(argv: string[]): RulesArgs {
  let node = 'node-1';
  let stateDir: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(0, eq) : a;
    const value = () => {
      const v = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new Error(`flag needs an argument: ${name}`);
      return v;
    };
    if (name === '--node') node = value();
    else if (name === '--state-dir') stateDir = value();
    else throw new Error(`unknown flag: ${a}`);
  }
  if (!/^node-\d+$/.test(node)) throw new Error(`--node must name a local node (node-1, node-2, ...), got "${node}"`);
  return { node, stateDir: stateDirFrom(stateDir) };
}

export async function rulesCommand(argv: string[]): Promise<number> {
  let args: RulesArgs;
  try {
    args = parseRulesArgs(argv);
  } catch (e) {
    process.stderr.write(`kubelab rules: ${(e as Error).message}\n`);
    return 2;
  }
  const index = Number(args.node.slice('node-'.length));
  const pidFile = join(args.stateDir, 'run', `kube-proxy-${index}.pid`);
  if (!existsSync(pidFile)) {
    process.stderr.write(`kubelab rules: kube-proxy-${index} is not running under ${args.stateDir} (start the cluster with: pnpm kubelab up)\n`);
    return 1;
  }
  let offset: unknown;
  try {
    offset = readClusterInfo(args.stateDir)?.portOffset;
  } catch (e) {
    process.stderr.write(`kubelab rules: ${(e as Error).message}\n`);
    return 1;
  }
  const url = `http://127.0.0.1:${nodePorts(index, typeof offset === 'number' ? offset : 0).kubeProxyMetrics}/rules`;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    const body = await res.text();
    if (!res.ok) {
      process.stderr.write(`kubelab rules: ${url} answered ${res.status}: ${body}\n`);
      return 1;
    }
    process.stdout.write(body.endsWith('\n') ? body : body + '\n');
    return 0;
  } catch (e) {
    process.stderr.write(`kubelab rules: cannot reach kube-proxy-${index} at ${url}: ${(e as Error).message}\n`);
    return 1;
  }
}
