// `kubelab rules`: the ruleset kube-proxy on one node of the local cluster
// (or on the node `kubelab join` runs on this machine) currently holds
// (iptables-save, nft list ruleset or ipvsadm -Ln form), read from its /rules
// endpoint, then the NetworkPolicy agent's filter chains
// (kube-network-policies' /rules), as `iptables-save` on the node lists both.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_JOIN_STATE_DIR, readClusterInfo, readJoinInfo, stateDirFrom, type JoinInfo } from './paths.js';
import { nodePorts } from './topology.js';

export interface RulesArgs {
  node: string;
  stateDir: string;
}

const LOCAL_NODE = /^node-\d+$/;

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
  // A node not named node-N is one `kubelab join` runs on this machine: its state dir by default.
  return { node, stateDir: stateDirFrom(stateDir ?? (LOCAL_NODE.test(node) ? undefined : DEFAULT_JOIN_STATE_DIR)) };
}

/** One process serving /rules: its supervisor pid file (under <state-dir>/run) and its URL. */
export interface RulesSource {
  who: string;
  pidFile: string;
  url: string;
}

/**
 * Where a node's kube-proxy and NetworkPolicy agent serve their rules: a node
 * `kubelab up` runs (node-N: its index's ports, suffixed names) or the one a
 * join state dir runs (node-1's ports moved by its --port-offset, plain
 * names). Pure; throws when the state dir runs no such node.
 */
export function rulesSources(a: RulesArgs, at: { portOffset: number; joined?: JoinInfo }): { node: string; proxy: RulesSource; policies: RulesSource; joined: boolean } {
  const source = (name: string, port: number): RulesSource => ({ who: name, pidFile: join(a.stateDir, 'run', `${name}.pid`), url: `http://127.0.0.1:${port}/rules` });
  if (at.joined) {
    if (a.node !== at.joined.nodeName) throw new Error(`--node ${a.node}: the node kubelab join runs from ${a.stateDir} is ${at.joined.nodeName}`);
    const p = nodePorts(1, at.joined.portOffset);
    return { node: a.node, proxy: source('kube-proxy', p.kubeProxyMetrics), policies: source('kube-network-policies', p.netpol), joined: true };
  }
  if (!LOCAL_NODE.test(a.node)) throw new Error(`--node must name a local node (node-1, node-2, ...) or, with a kubelab join state dir, the joined node; got "${a.node}"`);
  const index = Number(a.node.slice('node-'.length));
  const p = nodePorts(index, at.portOffset);
  return { node: a.node, proxy: source(`kube-proxy-${index}`, p.kubeProxyMetrics), policies: source(`kube-network-policies-${index}`, p.netpol), joined: false };
}

export async function rulesCommand(argv: string[]): Promise<number> {
  let src: ReturnType<typeof rulesSources>;
  let args: RulesArgs;
  try {
    args = parseRulesArgs(argv);
  } catch (e) {
    process.stderr.write(`kubelab rules: ${(e as Error).message}\n`);
    return 2;
  }
  try {
    const joined = readJoinInfo(args.stateDir);
    const offset = joined ? undefined : readClusterInfo(args.stateDir)?.portOffset;
    src = rulesSources(args, { portOffset: typeof offset === 'number' ? offset : 0, ...(joined ? { joined } : {}) });
  } catch (e) {
    process.stderr.write(`kubelab rules: ${(e as Error).message}\n`);
    return 1;
  }
  if (!existsSync(src.proxy.pidFile)) {
    const start = src.joined ? 'kubelab join' : 'pnpm kubelab up';
    process.stderr.write(`kubelab rules: ${src.proxy.who} is not running under ${args.stateDir} (start the node with: ${start})\n`);
    return 1;
  }
  const proxy = await fetchRules(src.proxy.url, src.proxy.who);
  if (proxy === undefined) return 1;
  process.stdout.write(proxy);
  // The policy agent's chains (filter table) beside kube-proxy's; a cluster from before it existed has none.
  if (existsSync(src.policies.pidFile)) {
    const policies = await fetchRules(src.policies.url, src.policies.who);
    if (policies === undefined) return 1;
    process.stdout.write(`# NetworkPolicy rules of kube-network-policies on ${src.node}\n${policies}`);
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
