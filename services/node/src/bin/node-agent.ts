#!/usr/bin/env node
// node-agent: a compose node's answer to the dashboard's control requests
// (kubelab.control.<node>), as the NATS user kubelab:node-agent:<node>
// with the pair kubeadm-nats writes into the node's /etc/kubernetes/pki (the
// compose paths are the defaults; KUBELAB_NODE_AGENT_NATS_URL, _CA_FILE,
// _CERT_FILE and _KEY_FILE name others). Runs this node's systemctl or
// node-fault and replies with their output. Connects (and reconnects) until
// it is stopped; docker/node-init.sh starts it beside the network plugin.

import { connect } from '@nats-io/transport-node';
import { controlCommandLine, controlSubject, natsAuthOptions, nodeAgentNatsIdentity, parseNodeControlRequest, readNatsTls, type NodeControlReply } from '@kubelab/nats';
import { runNodeControl } from '../control.js';
import { nodeEnv } from '../node-env.js';

const env = nodeEnv();
const url = process.env.KUBELAB_NODE_AGENT_NATS_URL || 'nats://nats:4222';
const files = {
  caFile: process.env.KUBELAB_NODE_AGENT_CA_FILE || '/etc/kubernetes/pki/etcd/ca.crt',
  certFile: process.env.KUBELAB_NODE_AGENT_CERT_FILE || '/etc/kubernetes/pki/node-agent-nats-client.crt',
  keyFile: process.env.KUBELAB_NODE_AGENT_KEY_FILE || '/etc/kubernetes/pki/node-agent-nats-client.key',
};
const log = (s: string) => process.stderr.write(`node-agent ${env.name}: ${s}\n`);

async function main(): Promise<void> {
  for (;;) {
    try {
      // Read each try: kubeadm-nats may write the pair after this container started.
      const tls = readNatsTls(files);
      const nc = await connect({
        servers: url,
        name: `kubelab-node-agent-${env.name}`,
        timeout: 5000,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1000,
        ...natsAuthOptions(nodeAgentNatsIdentity(env.name), tls),
      });
      log(`answering ${controlSubject(env.name)} on ${url}`);
      for await (const msg of nc.subscribe(controlSubject(env.name))) {
        let reply: NodeControlReply;
        try {
          const req = parseNodeControlRequest(JSON.parse(msg.string()));
          log(controlCommandLine(req));
          reply = await runNodeControl(req, env);
        } catch (e) {
          reply = { ok: false, output: `refused: ${(e as Error).message}\n` };
        }
        msg.respond(JSON.stringify(reply));
      }
      return;
    } catch (e) {
      log(`${(e as Error).message}; trying again in 5s`);
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
}

void main();
