// The node cut off from the control plane (`kubelab fault <node>
// node-partition`): while the node's fault state (@kubelab/systemd
// node-faults, <root>/run/systemd/kubelab-faults/node.json) says `partitioned`, the
// kubelet's connection to the apiserver carries nothing, as behind a dropped
// route: open streams (watches) break, and each new call hangs until its
// deadline or the dial timeout and fails. The kubelet itself goes on: its
// pods keep running, its node status and lease stop reaching the apiserver,
// and the node lifecycle controller marks the node Unknown after the grace
// period. In the compose cluster the same fault is a firewall rule in the
// node's network namespace; in the local runner, where every process shares
// the host's loopback, the kubelet's gRPC client applies it (an interceptor).

import * as grpc from '@grpc/grpc-js';
import { watchNodeFaults } from '@kubelab/systemd';

/** How long a dial to an unreachable address hangs before Go's net.Dialer gives up (the kubelet's client: 30 s; shortened by --time-scale). */
export const DIAL_TIMEOUT_MS = 30_000;

export class NodePartition {
  private cut = false;
  private readonly open = new Set<grpc.InterceptingCall>();

  constructor(
    /** The apiserver's address as the kubelet dials it (host:port). */
    private readonly address: string,
    private readonly dialTimeoutMs = DIAL_TIMEOUT_MS,
  ) {}

  get partitioned(): boolean {
    return this.cut;
  }

  /** Follows the node's fault state under `root`; returns the function that stops. */
  follow(root: string): () => void {
    return watchNodeFaults(root, (s) => this.set(s.partitioned === true));
  }

  set(on: boolean): void {
    if (on === this.cut) return;
    this.cut = on;
    if (!on) return;
    // The connection is gone: every stream on it ends (a watch sees its transport close).
    for (const call of [...this.open]) call.cancelWithStatus(grpc.status.UNAVAILABLE, this.lostText());
    this.open.clear();
  }

  private lostText(): string {
    return `error reading from server: read tcp ->${this.address}: read: connection timed out`;
  }

  private dialText(): string {
    return `connection error: desc = "transport: Error while dialing: dial tcp ${this.address}: i/o timeout"`;
  }

  /** The interceptor for the kubelet's apiserver client. */
  readonly interceptor: grpc.Interceptor = (options, nextCall) => {
    if (this.cut) {
      const deadline = options.deadline instanceof Date ? options.deadline.getTime() : typeof options.deadline === 'number' ? options.deadline : Infinity;
      const waitMs = Math.max(0, Math.min(this.dialTimeoutMs, deadline - Date.now()));
      const byDeadline = deadline - Date.now() <= this.dialTimeoutMs;
      return new grpc.InterceptingCall(nextCall(options), {
        start: (_metadata, listener) => {
          setTimeout(() => {
            listener.onReceiveStatus({
              code: byDeadline ? grpc.status.DEADLINE_EXCEEDED : grpc.status.UNAVAILABLE,
              details: byDeadline ? 'context deadline exceeded' : this.dialText(),
              metadata: new grpc.Metadata(),
            });
          }, waitMs).unref();
        },
        sendMessage: () => {},
        halfClose: () => {},
      });
    }
    const call: grpc.InterceptingCall = new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, _listener, next) =>
        next(metadata, {
          onReceiveStatus: (status, nextStatus) => {
            this.open.delete(call);
            nextStatus(status);
          },
        }),
    });
    this.open.add(call);
    return call;
  };
}
