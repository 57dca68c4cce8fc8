// `kubelab rules`: the ruleset kube-proxy on one node of the local cluster
// currently holds (iptables-save, nft list ruleset or ipvsadm -Ln form),
// read from its /rules endpoint, then the NetworkPolicy agent's filter chains
// (kube-network-policies' /rules), as `iptables-save` on the node lists both.

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
  const ports = nodePorts(index, typeof offset === 'number' ? offset : 0);
  const proxy = await fetchRules(`http://127.0.0.1:${ports.kubeProxyMetrics}/rules`, `kube-proxy-${index}`);
  if (proxy === undefined) return 1;
  process.stdout.write(proxy);
  // The policy agent's chains (filter table) beside kube-proxy's; a cluster from before it existed has none.
  if (existsSync(join(args.stateDir, 'run', `kube-network-policies-${index}.pid`))) {
    const policies = await fetchRules(`http://127.0.0.1:${ports.netpol}/rules`, `kube-network-policies-${index}`);
    if (policies === undefined) return 1;
    process.stdout.write(`# NetworkPolicy rules of kube-network-policies on ${args.node}\n${policies}`);
  }
  return 0;
}

/** A /rules body ending in a newline, or undefined after saying on stderr why not. */
async function fetchRules(url: string, who: string): Promise<string | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    const body = await res.text();
    if (!res.ok) {
      process.stderr.write(`kubelab rules: ${url} answered ${res.status}: ${body}\n`);
      return undefined;
    }
    return body.endsWith('\n') ? body : body + '\n';
  } catch (e) {
    process.stderr.write(`kubelab rules: cannot reach ${who} at ${url}: ${(e as Error).message}\n`);
    return undefined;
  }
}
