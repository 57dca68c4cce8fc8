// `kubelab fault list` and `kubelab fault <node> <fault> [--clear]`: injects
// a fault of the catalogue (fault-catalogue.ts) into a local runner's node,
// or clears it. The plans are pure; this module reads the facts they need
// (unit state, statfs, memory) and carries out their steps on the node root.

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statfsSync, watch } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { appendJournal, effectiveState, kernelRecord, pidAlive, readNodeFaults, readUnitState, sendControl, startKernelBoot, unitStateDir, writeNodeFaults } from '@kubelab/systemd';
import { describeStep, FAULTS, findFault, formatFaultList, mergeNodeFaults, planFault, type FaultStep, type NodeFacts } from './fault-catalogue.js';
import { clientStateDir } from './paths.js';
import { nodeShellEnv } from './ssh.js';
import { nodeDir, nodeRoot } from './topology.js';

export interface FaultArgs {
  node: string;
  fault: string;
  clear: boolean;
  stateDir: string;
  /** oom-kill's victim: the pod of this name (else the newest running container outside kube-system). */
  pod?: string;
}

const USAGE = 'usage: kubelab fault list | kubelab fault <node> <fault> [--clear] [--pod NAME] [--state-dir DIR]';

export function parseFaultArgs(argv: string[]): FaultArgs | 'list' {
  let stateDir: string | undefined;
  let clear = false;
  let pod: string | undefined;
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--clear') clear = true;
    else if (a === '--state-dir') stateDir = argv[++i];
    else if (a.startsWith('--state-dir=')) stateDir = a.slice('--state-dir='.length);
    else if (a === '--pod') pod = argv[++i];
    else if (a.startsWith('--pod=')) pod = a.slice('--pod='.length);
    else if (a.startsWith('-')) throw new Error(`unknown flag ${a}`);
    else pos.push(a);
  }
  if (pos.length === 1 && pos[0] === 'list' && !clear) return 'list';
  if (pos.length !== 2) throw new Error(USAGE);
  return { node: pos[0]!, fault: pos[1]!, clear, stateDir: clientStateDir(stateDir), ...(pod ? { pod } : {}) };
}

/** How long a step waits for a unit to change state (a kubelet stops within its unit's stop timeout). */
const UNIT_WAIT_MS = 30_000;

function pidMax(): number {
  try {
    return Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8').trim()) || 32768;
  } catch {
    return 32768;
  }
}

function mainPid(root: string, unit: string): number {
  const s = readUnitState(root, unit);
  return s ? effectiveState(s, pidAlive).mainPid : 0;
}

export function nodeFacts(root: string): NodeFacts {
  const st = statfsSync(root);
  return {
    containerdPid: mainPid(root, 'containerd.service'),
    disk: { capacityBytes: st.blocks * st.bsize, availableBytes: st.bavail * st.bsize },
    memoryCapacityBytes: totalmem(),
    pidMax: pidMax(),
  };
}

/** Resolves once `ok()` holds, re-checking when the unit state folder changes (fs.watch), or fails after `ms`. */
function waitUnit(root: string, unit: string, active: boolean, ms = UNIT_WAIT_MS): Promise<void> {
  const ok = () => {
    const s = readUnitState(root, unit);
    const live = s ? effectiveState(s, pidAlive).activeState === 'active' : false;
    return live === active;
  };
  if (ok()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const watcher = watch(unitStateDir(root), () => {
      if (!ok()) return;
      done();
      resolve();
    });
    const timer = setTimeout(() => {
      done();
      reject(new Error(`${unit} did not become ${active ? 'active' : 'inactive'} within ${ms / 1000} s`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      watcher.close();
    };
  });
}

/** crictl on the node, as in its shell (the node's crictl.yaml and containerd socket). */
function crictl(stateDir: string, node: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('crictl', args, { env: nodeShellEnv(stateDir, node), timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`crictl ${args[0]}: ${stderr.trim() || err.message}`)) : resolve(stdout))),
  );
}

interface CriContainer {
  id: string;
  createdAt: string;
  metadata?: { name?: string };
  labels?: Record<string, string>;
}

/** The container oom-kill limits: of the pod named, else the newest running one outside kube-system. */
export function oomVictim(containers: CriContainer[], pod?: string): CriContainer | undefined {
  const podOf = (c: CriContainer) => c.labels?.['io.kubernetes.pod.name'];
  const nsOf = (c: CriContainer) => c.labels?.['io.kubernetes.pod.namespace'];
  const candidates = containers.filter((c) => (pod ? podOf(c) === pod : nsOf(c) !== 'kube-system'));
  return candidates.sort((a, b) => (BigInt(b.createdAt || '0') > BigInt(a.createdAt || '0') ? 1 : -1))[0];
}

/** Runs a step; returns what it did when that says more than describeStep. */
async function runStep(stateDir: string, node: string, root: string, s: FaultStep, pod?: string): Promise<string | void> {
  switch (s.kind) {
    case 'kernel':
      return appendJournal(root, kernelRecord(node, s.message, s.priority));
    case 'kernel-boot':
      return startKernelBoot(root);
    case 'systemctl': {
      const state = readUnitState(root, s.unit);
      // systemctl's words for a unit no manager on the node runs.
      if (!state) throw new Error(`Unit ${s.unit} could not be found.`);
      if (!state.controlSocket) throw new Error(`Failed to ${s.verb} ${s.unit}: Transport endpoint is not connected`);
      const reply = await sendControl(state.controlSocket, { verb: s.verb });
      if (!reply.ok) throw new Error(`Failed to ${s.verb} ${s.unit}: ${reply.error ?? 'unknown error'}`);
      return;
    }
    case 'signal': {
      const pid = mainPid(root, s.unit);
      if (!pid) throw new Error(`${s.unit} is not running (no MainPID)`);
      process.kill(pid, s.signal);
      return;
    }
    case 'await-unit':
      return waitUnit(root, s.unit, s.active);
    case 'node-state':
      return writeNodeFaults(root, mergeNodeFaults(readNodeFaults(root), s.patch));
    case 'oom-kill': {
      const list = JSON.parse(await crictl(stateDir, node, ['ps', '-o', 'json', '--state', 'Running'])) as { containers?: CriContainer[] };
      const victim = oomVictim(list.containers ?? [], pod);
      if (!victim) throw new Error(pod ? `no running container of pod ${pod}` : 'no running container outside kube-system');
      await crictl(stateDir, node, ['update', '--memory', String(s.memoryBytes), victim.id]);
      const who = `${victim.labels?.['io.kubernetes.pod.namespace']}/${victim.labels?.['io.kubernetes.pod.name']} container ${victim.metadata?.name}`;
      return `${node}: crictl update --memory ${s.memoryBytes} ${victim.id.slice(0, 13)} (${who})`;
    }
    case 'process-signal': {
      const file = join(stateDir, 'run', `${s.process}.pid`);
      if (!existsSync(file)) throw new Error(`${s.process} is not running (no ${file})`);
      process.kill(Number(readFileSync(file, 'utf8').trim()), s.signal);
      return;
    }
  }
}

function nodesOf(stateDir: string): string[] {
  try {
    return readdirSync(join(stateDir, 'nodes')).sort();
  } catch {
    return [];
  }
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
  if (!existsSync(nodeDir({ stateDir: args.stateDir }, args.node))) {
    const known = nodesOf(args.stateDir);
    err(`kubelab fault: no node ${args.node} in ${args.stateDir}${known.length ? ` (nodes: ${known.join(', ')})` : ' (is kubelab up running there?)'}\n`);
    return 1;
  }
  const root = nodeRoot({ stateDir: args.stateDir }, args.node);
  const steps = planFault(entry, args.clear, nodeFacts(root));
  for (const step of steps) {
    let said: string | void;
    try {
      said = await runStep(args.stateDir, args.node, root, step, args.pod);
    } catch (e) {
      err(`kubelab fault: ${args.node}: ${(e as Error).message}\n`);
      return 1;
    }
    if (step.kind !== 'await-unit') out((said || describeStep(args.node, step)) + '\n');
  }
  out(`${args.node}: ${entry.name} ${args.clear ? 'cleared' : 'injected'}${args.clear ? '' : `; you will see: ${entry.see}`}\n`);
  return 0;
}
