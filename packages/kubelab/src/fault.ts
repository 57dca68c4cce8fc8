// `kubelab fault list` and `kubelab fault <node> <fault> [--clear]`: injects
// a fault of the catalogue (@kubelab/node's fault-catalogue.ts) into a node,
// or clears it. In the local runner the node's steps run here against the
// node root (@kubelab/node's runNodeStep) and etcd-lost signals the runner's
// NATS server; with --compose (or a compose state dir) they run in the node
// container (`docker compose exec -T <node> node-fault <fault>`) and etcd-lost
// freezes the NATS container (`docker compose pause nats`).

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crictlWith, describeStep, FAULTS, findFault, formatFaultList, nodeFacts, planFault, runNodeStep, type FaultStep } from '@kubelab/node';
import { clientStateDir, REPO_ROOT } from './paths.js';
import { composeCli, isComposeStateDir, nodeShellEnv } from './ssh.js';
import { nodeDir, nodeRoot } from './topology.js';

export interface FaultArgs {
  node: string;
  fault: string;
  clear: boolean;
  stateDir: string;
  /** oom-kill's victim: the pod of this name (else the newest running container outside kube-system). */
  pod?: string;
  /** The compose cluster: the node is its container. */
  compose?: boolean;
}

const USAGE = 'usage: kubelab fault list | kubelab fault <node> <fault> [--clear] [--pod NAME] [--compose] [--state-dir DIR]';

export function parseFaultArgs(argv: string[]): FaultArgs | 'list' {
  let stateDir: string | undefined;
  let clear = false;
  let compose = false;
  let pod: string | undefined;
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--clear') clear = true;
    else if (a === '--compose') compose = true;
    else if (a === '--state-dir') stateDir = argv[++i];
    else if (a.startsWith('--state-dir=')) stateDir = a.slice('--state-dir='.length);
    else if (a === '--pod') pod = argv[++i];
    else if (a.startsWith('--pod=')) pod = a.slice('--pod='.length);
    else if (a.startsWith('-')) throw new Error(`unknown flag ${a}`);
    else pos.push(a);
  }
  if (pos.length === 1 && pos[0] === 'list' && !clear) return 'list';
  if (pos.length !== 2) throw new Error(USAGE);
  return { node: pos[0]!, fault: pos[1]!, clear, stateDir: clientStateDir(stateDir), ...(pod ? { pod } : {}), ...(compose ? { compose } : {}) };
}

/** The compose CLI's arguments for a fault (pure): the node's node-fault, or NATS's container paused for etcd-lost. */
export function composeFaultCommand(a: Pick<FaultArgs, 'node' | 'fault' | 'clear' | 'pod'>): string[] {
  if (a.fault === 'etcd-lost') return [a.clear ? 'unpause' : 'pause', 'nats'];
  return ['exec', '-T', a.node, 'node-fault', a.fault, ...(a.clear ? ['--clear'] : []), ...(a.pod ? ['--pod', a.pod] : [])];
}

/** A signal to a control-plane process of the local runner, by its pid file (<state>/run/<name>.pid). */
function signalProcess(stateDir: string, s: Extract<FaultStep, { kind: 'process-signal' }>): void {
  const file = join(stateDir, 'run', `${s.process}.pid`);
  if (!existsSync(file)) throw new Error(`${s.process} is not running (no ${file})`);
  process.kill(Number(readFileSync(file, 'utf8').trim()), s.signal);
}

function nodesOf(stateDir: string): string[] {
  try {
    return readdirSync(join(stateDir, 'nodes')).sort();
  } catch {
    return [];
  }
}

function runCompose(args: string[], out: (s: string) => void, err: (s: string) => void): Promise<number> {
  const [cmd, ...prefix] = composeCli();
  return new Promise((resolve) => {
    const child = spawn(cmd!, [...prefix, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d: Buffer) => out(d.toString()));
    child.stderr.on('data', (d: Buffer) => err(d.toString()));
    child.once('error', (e) => {
      err(`kubelab fault: cannot run ${cmd}: ${e.message}\n`);
      resolve(255);
    });
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

export async function faultCommand(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s), err: (s: string) => void = (s) => process.stderr.write(s)): Promise<number> {
  let args: FaultArgs | 'list';
  try {
    args = parseFaultArgs(argv);
  } catch (e) {
    err(`kubelab fault: ${(e as Error).message}\n`);
    return 2;
  }
  if (args === 'list') {
    out(formatFaultList(FAULTS));
    return 0;
  }
  const entry = findFault(args.fault);
  if (!entry) {
    err(`kubelab fault: unknown fault "${args.fault}" (kubelab fault list shows them)\n`);
    return 2;
  }
  const local = existsSync(nodeDir({ stateDir: args.stateDir }, args.node));
  if (args.compose || (!local && isComposeStateDir(args.stateDir))) {
    const cmd = composeFaultCommand(args);
    if (args.fault === 'etcd-lost') out(`control plane: docker compose ${cmd.join(' ')}\n`);
    const code = await runCompose(cmd, out, err);
    if (code === 0 && args.fault === 'etcd-lost') out(`${args.node}: ${entry.name} ${args.clear ? 'cleared' : 'injected'}${args.clear ? '' : `; you will see: ${entry.see}`}\n`);
    return code;
  }
  if (!local) {
    const known = nodesOf(args.stateDir);
    err(`kubelab fault: no node ${args.node} in ${args.stateDir}${known.length ? ` (nodes: ${known.join(', ')})` : ' (is kubelab up running there?)'}\n`);
    return 1;
  }
  const root = nodeRoot({ stateDir: args.stateDir }, args.node);
  const ctx = { root, node: args.node, crictl: crictlWith(nodeShellEnv(args.stateDir, args.node)), ...(args.pod ? { pod: args.pod } : {}) };
  for (const step of planFault(entry, args.clear, nodeFacts(root))) {
    let said: string | void = undefined;
    try {
      if (step.kind === 'process-signal') signalProcess(args.stateDir, step);
      else said = await runNodeStep(ctx, step);
    } catch (e) {
      err(`kubelab fault: ${args.node}: ${(e as Error).message}\n`);
      return 1;
    }
    if (step.kind !== 'await-unit') out((said || describeStep(args.node, step)) + '\n');
  }
  out(`${args.node}: ${entry.name} ${args.clear ? 'cleared' : 'injected'}${args.clear ? '' : `; you will see: ${entry.see}`}\n`);
  return 0;
}
