// What a node's agent does for a control request (the dashboard's stop,
// start, fault over NATS, @kubelab/nats control.ts): this node's own
// systemctl or node-fault, their output captured. The NATS side is the
// agent's (bin/node-agent.ts in compose; the local runner's node-control.ts).

import { nodeFault } from './fault.js';
import type { NodeEnv } from './node-env.js';
import { systemctl } from './systemctl.js';

/** A validated request (@kubelab/nats NodeControlRequest). */
export type NodeControl = { action: 'stop' | 'start'; unit: string } | { action: 'fault'; fault: string; clear: boolean };

/** Runs the request on this node: `systemctl stop|start UNIT` or `node-fault FAULT [--clear]`; ok when it exits 0. */
export async function runNodeControl(req: NodeControl, env: NodeEnv): Promise<{ ok: boolean; output: string }> {
  let output = '';
  const io = { out: (s: string) => void (output += s), err: (s: string) => void (output += s) };
  const code = req.action === 'fault' ? await nodeFault([req.fault, ...(req.clear ? ['--clear'] : [])], io, env) : await systemctl([req.action, req.unit], io, env);
  return { ok: code === 0, output };
}
