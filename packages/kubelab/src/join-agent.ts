// A joined node's agent (`kubelab join`): as the local runner's agents
// (node-control.ts), it answers the dashboard's requests on
// kubelab.control.<node> with the node's own `systemctl stop|start <unit>`;
// they come from the cluster's NATS through the node's leaf nats-server,
// whose cluster-side user may hear this node's requests and answer the
// dashboard only. Faults are the local runner's (they act on its state dir).

import { connect, type NatsConnection } from '@nats-io/transport-node';
import { systemctl } from '@kubelab/node';
import { controlCommandLine, controlSubject, isControlPlaneComponent, parseNodeControlRequest, type NodeControlRequest, type NodeControlReply } from '@kubelab/nats';
import { answerControl } from './node-control.js';

export interface JoinedNodeAgent {
  close(): Promise<void>;
}

/** What the agent of a joined node does for a request. */
export function joinedNodeRunner(root: string): (node: string, req: NodeControlRequest) => Promise<NodeControlReply> {
  return async (node, req) => {
    if (req.action === 'fault') return { ok: false, output: `faults are injected on the nodes kubelab up runs; ${node} joined from another machine\n` };
    if (isControlPlaneComponent(req.unit)) return { ok: false, output: `${req.unit} is a static pod of the control-plane node, not a unit of ${node}\n` };
    let output = '';
    const write = (s: string) => void (output += s);
    const code = await systemctl([req.action, req.unit], { out: write, err: write }, { root, name: node, unitProcessesOnly: true });
    return { ok: code === 0, output };
  };
}

export async function startJoinedNodeAgent(o: { node: string; root: string; natsUrl: string; log: (line: string) => void }): Promise<JoinedNodeAgent | undefined> {
  let nc: NatsConnection;
  try {
    nc = await connect({ servers: o.natsUrl, name: `kubelab-node-agent-${o.node}`, timeout: 5000, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  } catch (e) {
    o.log(`no control agent for ${o.node} (the dashboard cannot stop its units): ${(e as Error).message}`);
    return undefined;
  }
  const run = joinedNodeRunner(o.root);
  nc.subscribe(controlSubject(o.node), {
    callback: (err, msg) => {
      if (err) return o.log(`node agent ${o.node}: ${err.message}`);
      void answerControl(o.node, msg.string(), run).then((reply) => {
        o.log(`${o.node}: ${reply.ok ? '' : 'failed: '}${line(msg.string())} (asked by the dashboard)`);
        msg.respond(JSON.stringify(reply));
      });
    },
  });
  return { close: () => nc.close().catch(() => {}) };
}

function line(payload: string): string {
  try {
    return controlCommandLine(parseNodeControlRequest(JSON.parse(payload)));
  } catch {
    return 'a malformed request';
  }
}
