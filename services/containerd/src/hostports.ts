// hostPort mappings (PortMapping.host_port), as the CNI portmap plugin gives
// them: a TCP connection to <node address>:<hostPort> reaches the sandbox's
// container port. Here a listener per mapping on the node's address pipes each
// connection to wherever the container's simulated server listens
// (streaming/dial.ts). The listeners open with the sandbox and close when it
// stops. A port already taken is logged and left out, as portmap's iptables
// rules would simply not win over a host process.

import { createServer, type Server } from 'node:net';
import type { Runtime, Sandbox } from './runtime.js';
import { dialSandboxPort } from './streaming/dial.js';

export class HostPorts {
  private readonly servers = new Map<string, Server[]>();

  constructor(
    private readonly rt: Pick<Runtime, 'getSandbox'>,
    /** The node's address the mappings are served on when a mapping names no host_ip (127.0.0.1 for a runtime on the host). */
    private readonly nodeAddress: string,
    private readonly warn: (msg: string, fields?: Record<string, unknown>) => void,
  ) {}

  async open(sb: Sandbox): Promise<void> {
    if (sb.config.linux?.securityContext?.namespaceOptions?.network === 'NODE') return;
    const list: Server[] = [];
    this.servers.set(sb.id, list);
    for (const m of sb.config.portMappings ?? []) {
      if (!m.hostPort || (m.protocol && m.protocol !== 'TCP')) continue;
      const host = m.hostIp && m.hostIp !== '0.0.0.0' ? m.hostIp : this.nodeAddress;
      const server = createServer((client) => {
        client.on('error', () => client.destroy());
        dialSandboxPort(this.rt, sb.id, m.containerPort).then(
          (upstream) => {
            upstream.on('error', () => client.destroy());
            client.on('close', () => upstream.destroy());
            upstream.on('close', () => client.destroy());
            client.pipe(upstream).pipe(client);
          },
          () => client.destroy(),
        );
      });
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(m.hostPort, host, () => resolve());
        });
        list.push(server);
      } catch (err) {
        this.warn('hostPort not served', { sandbox: sb.id, hostIp: host, hostPort: m.hostPort, err: (err as Error).message });
      }
    }
  }

  close(sandboxId: string): void {
    for (const s of this.servers.get(sandboxId) ?? []) s.close();
    this.servers.delete(sandboxId);
  }

  closeAll(): void {
    for (const id of [...this.servers.keys()]) this.close(id);
  }
}
