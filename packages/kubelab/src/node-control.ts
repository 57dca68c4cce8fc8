// The local runner as its nodes' agents: one NATS connection per node, as
// that node's agent identity (kubelab:node-agent:<node>), answering the
// dashboard's requests on kubelab.control.<node> (@kubelab/nats control.ts)
// with the same code a person runs: `systemctl stop|start <unit>` in the
// node's shell (@kubelab/node's systemctl over the unit's control socket) and
// `kubelab fault <node> <fault> [--clear]` (fault.ts). In compose, each node
// container's node-agent answers instead (services/node).

import { connect, type NatsConnection } from '@nats-io/transport-node';
import { systemctl } from '@kubelab/node';
import {
  controlCommandLine,
  controlSubject,
  isControlPlaneComponent,
  natsAuthOptions,
  nodeAgentNatsIdentity,
  parseNodeControlRequest,
  readNatsTls,
  type NodeControlReply,
  type NodeControlRequest,
} from '@kubelab/nats';
import { faultCommand } from './fault.js';
import { natsClientFiles, nodeRoot } from './topology.js';

/** What a node's agent runs for a request; the output is what the command printed, both streams. */
export type NodeControlRunner = (node: string, req: NodeControlRequest) => Promise<NodeControlReply>;

/** The runner's own processes standing for the control-plane node's static pods (kube-scheduler, kube-controller-manager). */
export type ControlPlaneHook = (action: 'stop' | 'start', component: string) => Promise<NodeControlReply>;

/** The local runner's: the node's systemctl, `kubelab fault` against the state dir, or the runner's control-plane processes. */
export function localControlRunner(stateDir: string, controlPlane?: ControlPlaneHook, controlPlaneNode = 'control-plane'): NodeControlRunner {
  return async (node, req) => {
    if (req.action !== 'fault' && isControlPlaneComponent(req.unit)) {
      if (node !== controlPlaneNode || !controlPlane) return { ok: false, output: `${req.unit} is a static pod of the ${controlPlaneNode} node, not a unit of ${node}\n` };
      return controlPlane(req.action, req.unit);
    }
    let output = '';
    const write = (s: string) => void (output += s);
    const code =
      req.action === 'fault'
        ? await faultCommand([node, req.fault, ...(req.clear ? ['--clear'] : []), '--state-dir', stateDir], write, write)
        : await systemctl([req.action, req.unit], { out: write, err: write }, { root: nodeRoot({ stateDir }, node), name: node, unitProcessesOnly: true });
    return { ok: code === 0, output };
  };
}

/** Answers one request's payload (pure but for `run`): a bad request is refused with the reason, a failure of the command with its output. */
export async function answerControl(node: string, payload: string, run: NodeControlRunner): Promise<NodeControlReply> {
  let req: NodeControlRequest;
  try {
    req = parseNodeControlRequest(JSON.parse(payload));
  } catch (e) {
    return { ok: false, output: `refused: ${(e as Error).message}\n` };
  }
  try {
    return await run(node, req);
  } catch (e) {
    return { ok: false, output: `${controlCommandLine(req)}: ${(e as Error).message}\n` };
  }
}

export interface NodeAgents {
  close(): Promise<void>;
}

/** Connects an agent per node; a node whose certificate is missing (an older state dir) gets none, with a note. */
export async function startNodeAgents(o: {
  stateDir: string;
  natsUrl: string;
  nodes: readonly string[];
  run?: NodeControlRunner;
  controlPlane?: ControlPlaneHook;
  log?: (line: string) => void;
}): Promise<NodeAgents> {
  const run = o.run ?? localControlRunner(o.stateDir, o.controlPlane);
  const conns: NatsConnection[] = [];
  for (const node of o.nodes) {
    try {
      const tls = readNatsTls(natsClientFiles(o.stateDir, { agent: node }));
      const nc = await connect({
        servers: o.natsUrl,
        name: `kubelab-node-agent-${node}`,
        timeout: 5000,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        ...natsAuthOptions(nodeAgentNatsIdentity(node), tls),
      });
      nc.subscribe(controlSubject(node), {
        callback: (err, msg) => {
          if (err) return o.log?.(`node agent ${node}: ${err.message}`);
          void answerControl(node, msg.string(), run).then((reply) => {
            o.log?.(`${node}: ${reply.ok ? '' : 'failed: '}${tryLine(msg.string())} (asked by the dashboard)`);
            msg.respond(JSON.stringify(reply));
          });
        },
      });
      conns.push(nc);
    } catch (e) {
      o.log?.(`no control agent for ${node} (the dashboard cannot stop its units): ${(e as Error).message}`);
    }
  }
  return {
    close: async () => {
      await Promise.all(conns.map((c) => c.close().catch(() => {})));
    },
  };
}

function tryLine(payload: string): string {
  try {
    return controlCommandLine(parseNodeControlRequest(JSON.parse(payload)));
  } catch {
    return 'a malformed request';
  }
}
