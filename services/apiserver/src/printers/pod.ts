// Pod rows: READY, the STATUS reason kubectl users know (CrashLoopBackOff,
// Init:0/1, Completed, Terminating, ...) and RESTARTS "3 (5m ago)"
// (upstream: printPod in pkg/printers/internalversion).

import { isTerminalPhase } from '@kubelab/api';
import { since } from './duration.js';
import { AGE_COLUMN, NAME_COLUMN, col, type Obj, type Printer } from './table.js';

/** The pod.status.reason the node controller sets on pods of an unreachable node. */
const NODE_UNREACHABLE_REASON = 'NodeLost';

export interface PodSummary {
  ready: string;
  status: string;
  restarts: string;
}

function isRestartableInit(c: Obj | undefined): boolean {
  return c?.restartPolicy === 'Always';
}

function later(a: string | undefined, b: string | null | undefined): string | undefined {
  if (!b) return a;
  if (!a) return b;
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/** READY, STATUS and RESTARTS of a pod, derived from its status as kubectl prints them. */
export function summarizePod(pod: Obj, now: Date): PodSummary {
  const spec: Obj = pod.spec ?? {};
  const status: Obj = pod.status ?? {};
  const containers: Obj[] = spec.containers ?? [];
  const initSpecs: Obj[] = spec.initContainers ?? [];
  const conditions: Obj[] = status.conditions ?? [];
  let restarts = 0;
  let sidecarRestarts = 0;
  let total = containers.length;
  let ready = 0;
  let lastRestart: string | undefined;
  let lastSidecarRestart: string | undefined;
  let reason: string = status.reason || status.phase || '';

  if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) reason = 'SchedulingGated';

  const initByName = new Map<string, Obj>();
  for (const c of initSpecs) {
    initByName.set(c.name, c);
    if (isRestartableInit(c)) total++;
  }

  let initializing = false;
  const initStatuses: Obj[] = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const cs = initStatuses[i]!;
    const state: Obj = cs.state ?? {};
    restarts += cs.restartCount ?? 0;
    lastRestart = later(lastRestart, cs.lastState?.terminated?.finishedAt);
    const sidecar = isRestartableInit(initByName.get(cs.name));
    if (sidecar) {
      sidecarRestarts += cs.restartCount ?? 0;
      lastSidecarRestart = later(lastSidecarRestart, cs.lastState?.terminated?.finishedAt);
    }
    if (state.terminated && state.terminated.exitCode === 0) continue;
    if (sidecar && cs.started === true) {
      if (cs.ready) ready++;
      continue;
    }
    if (state.terminated) {
      const t = state.terminated;
      reason = t.reason ? `Init:${t.reason}` : t.signal ? `Init:Signal:${t.signal}` : `Init:ExitCode:${t.exitCode}`;
    } else if (state.waiting?.reason && state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${initSpecs.length}`;
    }
    initializing = true;
    break;
  }

  const initialized = conditions.some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initialized) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let hasRunning = false;
    const statuses: Obj[] = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const cs = statuses[i]!;
      const state: Obj = cs.state ?? {};
      restarts += cs.restartCount ?? 0;
      lastRestart = later(lastRestart, cs.lastState?.terminated?.finishedAt);
      if (state.waiting?.reason) reason = state.waiting.reason;
      else if (state.terminated?.reason) reason = state.terminated.reason;
      else if (state.terminated) reason = state.terminated.signal ? `Signal:${state.terminated.signal}` : `ExitCode:${state.terminated.exitCode}`;
      else if (cs.ready && state.running) {
        hasRunning = true;
        ready++;
      }
    }
    // A pod whose main container completed while another still runs.
    if (reason === 'Completed' && hasRunning) {
      reason = conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }

  const terminal = isTerminalPhase(status.phase);
  if (pod.metadata?.deletionTimestamp && status.reason === NODE_UNREACHABLE_REASON) reason = 'Unknown';
  else if (pod.metadata?.deletionTimestamp && !terminal) reason = 'Terminating';

  const restartsText = restarts !== 0 && lastRestart ? `${restarts} (${since(lastRestart, now)} ago)` : String(restarts);
  return { ready: `${ready}/${total}`, status: reason, restarts: restartsText };
}

function readinessGates(pod: Obj): string {
  const gates: Obj[] = pod.spec?.readinessGates ?? [];
  if (gates.length === 0) return '<none>';
  const conditions: Obj[] = pod.status?.conditions ?? [];
  const trueCount = gates.filter((g) => conditions.find((c) => c.type === g.conditionType)?.status === 'True').length;
  return `${trueCount}/${gates.length}`;
}

export const podPrinter: Printer = {
  columns: [
    NAME_COLUMN,
    col('Ready', 'string', 'Ready containers out of all containers of the pod.'),
    col('Status', 'string', 'The pod status as kubectl summarizes it from phase, reason and container states.'),
    col('Restarts', 'string', 'Container restarts in this pod, and how long ago the last one was.'),
    AGE_COLUMN,
    col('IP', 'string', 'The IP address allocated to the pod.', 1),
    col('Node', 'string', 'The node the pod is bound to.', 1),
    col('Nominated Node', 'string', 'The node the scheduler nominated after preempting pods there.', 1),
    col('Readiness Gates', 'string', 'Readiness gates whose condition is True, out of all gates.', 1),
  ],
  cells(pod, now) {
    const s = summarizePod(pod, now);
    const ip: string = pod.status?.podIPs?.[0]?.ip || pod.status?.podIP || '<none>';
    return [
      pod.metadata?.name,
      s.ready,
      s.status,
      s.restarts,
      since(pod.metadata?.creationTimestamp, now),
      ip,
      pod.spec?.nodeName || '<none>',
      pod.status?.nominatedNodeName || '<none>',
      readinessGates(pod),
    ];
  },
};
