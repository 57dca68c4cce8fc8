// A fault's steps carried out on the node (the catalogue's plans are pure,
// fault-catalogue.ts): kernel lines into the node's kernel log, systemctl
// through the units' control sockets, signals to a unit's MainPID, the node's
// fault state, and crictl for the OOM kill. `node-fault` runs them in a node
// (a compose node container: `docker compose exec node-1 node-fault …`);
// `kubelab fault` runs them for a local runner's node root.

import { execFile } from 'node:child_process';
import { readFileSync, statfsSync, watch } from 'node:fs';
import { totalmem } from 'node:os';
import { appendJournal, effectiveState, kernelRecord, pidAlive, readNodeFaults, readUnitState, sendControl, startKernelBoot, unitStateDir, writeNodeFaults } from '@kubelab/systemd';
import { describeStep, FAULTS, findFault, formatFaultList, mergeNodeFaults, planFault, type FaultStep, type NodeFacts } from './fault-catalogue.js';
import type { Io, NodeEnv } from './node-env.js';

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

/** Resolves once the unit is (or is no longer) active, re-checking when the unit state folder changes (fs.watch), or fails after `ms`. */
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

export interface CriContainer {
  id: string;
  createdAt: string;
  metadata?: { name?: string };
  labels?: Record<string, string>;
}

/** The container oom-kill limits: of the pod named, else the newest running one outside kube-system (pure). */
export function oomVictim(containers: CriContainer[], pod?: string): CriContainer | undefined {
  const podOf = (c: CriContainer) => c.labels?.['io.kubernetes.pod.name'];
  const nsOf = (c: CriContainer) => c.labels?.['io.kubernetes.pod.namespace'];
  const candidates = containers.filter((c) => (pod ? podOf(c) === pod : nsOf(c) !== 'kube-system'));
  return candidates.sort((a, b) => (BigInt(b.createdAt || '0') > BigInt(a.createdAt || '0') ? 1 : -1))[0];
}

/** The node's crictl (its crictl.yaml and containerd socket), as in the node's shell. */
export type Crictl = (args: string[]) => Promise<string>;

export function crictlWith(env: NodeJS.ProcessEnv): Crictl {
  return (args) =>
    new Promise((resolve, reject) =>
      execFile('crictl', args, { env, timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`crictl ${args[0]}: ${stderr.trim() || err.message}`)) : resolve(stdout))),
    );
}

export interface NodeStepContext {
  root: string;
  node: string;
  crictl: Crictl;
  /** oom-kill's victim: the pod of this name. */
  pod?: string;
}

/** Runs one of a fault's node steps; returns what it did when that says more than describeStep. */
export async function runNodeStep(ctx: NodeStepContext, s: FaultStep): Promise<string | void> {
  const { root, node } = ctx;
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
      const list = JSON.parse(await ctx.crictl(['ps', '-o', 'json', '--state', 'Running'])) as { containers?: CriContainer[] };
      const victim = oomVictim(list.containers ?? [], ctx.pod);
      if (!victim) throw new Error(ctx.pod ? `no running container of pod ${ctx.pod}` : 'no running container outside kube-system');
      await ctx.crictl(['update', '--memory', String(s.memoryBytes), victim.id]);
      const who = `${victim.labels?.['io.kubernetes.pod.namespace']}/${victim.labels?.['io.kubernetes.pod.name']} container ${victim.metadata?.name}`;
      return `${node}: crictl update --memory ${s.memoryBytes} ${victim.id.slice(0, 13)} (${who})`;
    }
    case 'process-signal':
      throw new Error(`${s.process} is no process of this node: run \`kubelab fault\` where the control plane runs`);
  }
}

/** Runs a plan's steps, reporting each; false when one failed (reported on err). */
export async function runNodeSteps(ctx: NodeStepContext, steps: FaultStep[], io: Pick<Io, 'out' | 'err'>, prefix: string): Promise<boolean> {
  for (const step of steps) {
    let said: string | void;
    try {
      said = await runNodeStep(ctx, step);
    } catch (e) {
      io.err(`${prefix}: ${ctx.node}: ${(e as Error).message}\n`);
      return false;
    }
    if (step.kind !== 'await-unit') io.out((said || describeStep(ctx.node, step)) + '\n');
  }
  return true;
}

const NODE_FAULT_USAGE = 'usage: node-fault list | node-fault <fault> [--clear] [--pod NAME]';

/** `node-fault list | node-fault <fault> [--clear] [--pod NAME]`: a fault of the catalogue injected into (or cleared from) this node. */
export async function nodeFault(argv: string[], io: Io, env: NodeEnv, crictl: Crictl = crictlWith(process.env)): Promise<number> {
  let clear = false;
  let pod: string | undefined;
  const pos: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--clear') clear = true;
    else if (a === '--pod') pod = argv[++i];
    else if (a.startsWith('--pod=')) pod = a.slice('--pod='.length);
    else if (a.startsWith('-')) {
      io.err(`node-fault: unknown flag ${a}\n${NODE_FAULT_USAGE}\n`);
      return 2;
    } else pos.push(a);
  }
  if (pos.length === 1 && pos[0] === 'list') {
    io.out(formatFaultList(FAULTS));
    return 0;
  }
  if (pos.length !== 1) {
    io.err(`${NODE_FAULT_USAGE}\n`);
    return 2;
  }
  const entry = findFault(pos[0]!);
  if (!entry) {
    io.err(`node-fault: unknown fault "${pos[0]}" (node-fault list shows them)\n`);
    return 2;
  }
  const steps = planFault(entry, clear, nodeFacts(env.root));
  if (!(await runNodeSteps({ root: env.root, node: env.name, crictl, ...(pod ? { pod } : {}) }, steps, io, 'node-fault'))) return 1;
  io.out(`${env.name}: ${entry.name} ${clear ? 'cleared' : 'injected'}${clear ? '' : `; you will see: ${entry.see}`}\n`);
  return 0;
}
