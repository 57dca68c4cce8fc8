// metrics-server's scraper (upstream pkg/scraper): every --metric-resolution
// each node's kubelet is asked for /metrics/resource, at the first address
// of the preferred types and the node's kubelet port (its status' daemon
// endpoint with --kubelet-use-node-status-port), as the metrics-server's own
// identity; the round's results replace the storage's. A failed node is
// logged and left out of that round, as upstream.

import { Agent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { createSecureContext } from 'node:tls';
import type { Node } from '@kubelab/api';
import { decodeResourceMetrics, type NodeBatch } from './decode.js';
import { joinHostPort } from '@kubelab/api';

export interface KubeletClientOptions {
  /** --kubelet-preferred-address-types. */
  addressTypes: readonly string[];
  /** --kubelet-use-node-status-port: the port the node publishes, else kubeletPort. */
  useNodeStatusPort: boolean;
  kubeletPort: number;
  /** The client certificate the kubelet authenticates. */
  certPem?: string;
  keyPem?: string;
  /** --kubelet-certificate-authority; --kubelet-insecure-tls skips verification. */
  caPem?: string;
  insecure: boolean;
  timeoutMs: number;
}

/** Where a node's kubelet is (upstream addressResolver and port choice); an error text when it has no usable address. */
export function kubeletTarget(node: Node, o: Pick<KubeletClientOptions, 'addressTypes' | 'useNodeStatusPort' | 'kubeletPort'>): { host: string; port: number } | { error: string } {
  const addresses = node.status?.addresses ?? [];
  let host: string | undefined;
  for (const t of o.addressTypes) {
    host = addresses.find((a) => a.type === t && a.address)?.address;
    if (host) break;
  }
  if (!host) return { error: `node ${node.metadata.name ?? ''} had no addresses that matched types [${o.addressTypes.join(' ')}]` };
  const statusPort = node.status?.daemonEndpoints?.kubeletEndpoint?.Port;
  return { host, port: o.useNodeStatusPort && statusPort ? statusPort : o.kubeletPort };
}

/** How long an idle connection to a kubelet is kept (client-go's transport and Go's http.DefaultTransport: 90 s; the kubelet's IdleTimeout matches). */
export const KUBELET_IDLE_CONNECTION_MS = 90_000;

/** The scraper's connections to the kubelets: kept alive between rounds, with one TLS context for all, as upstream's client-go transport. */
export interface KubeletClient {
  fetch(target: { host: string; port: number }): Promise<string>;
  /** Closes the idle connections. */
  close(): void;
}

export function kubeletClient(o: KubeletClientOptions): KubeletClient {
  // Built once: a context per connection would parse the certificate, key and CA again for every kubelet.
  const secureContext = createSecureContext({ ...(o.certPem && o.keyPem ? { cert: o.certPem, key: o.keyPem } : {}), ...(o.caPem ? { ca: o.caPem } : {}) });
  const agent = new Agent({ keepAlive: true, timeout: KUBELET_IDLE_CONNECTION_MS, secureContext, rejectUnauthorized: !o.insecure });
  return { fetch: (target) => fetchResourceMetrics(target, o, agent), close: () => agent.destroy() };
}

/** GET /metrics/resource of one kubelet over `agent`'s connections: its text, or a rejection with why. */
function fetchResourceMetrics(target: { host: string; port: number }, o: Pick<KubeletClientOptions, 'timeoutMs'>, agent: Agent): Promise<string> {
  return new Promise((resolve, reject) => {
    const url = `https://${joinHostPort(target.host, target.port)}/metrics/resource`;
    const req = httpsRequest(
      url,
      {
        method: 'GET',
        agent,
        timeout: o.timeoutMs,
        // No IP address as SNI (RFC 6066 allows names only; Go's client leaves it out too); the certificate is still checked against it.
        ...(isIP(target.host) ? { servername: '' } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          // A node's resource metrics are small; a runaway answer is cut off.
          if (size > 32 << 20) req.destroy(new Error('response too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`request failed, status: "${res.statusCode} ${res.statusMessage ?? ''}"`));
          else resolve(body);
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`Get "${url}": context deadline exceeded`)));
    req.on('error', (e) => reject(e));
    req.end();
  });
}

/** One round: every node scraped at once; the batches of those that answered. */
export async function scrapeNodes(
  nodes: readonly Node[],
  o: Pick<KubeletClientOptions, 'addressTypes' | 'useNodeStatusPort' | 'kubeletPort'>,
  fetchText: (target: { host: string; port: number }) => Promise<string>,
  now: () => number = Date.now,
  onError: (node: string, err: string) => void = () => {},
): Promise<Map<string, NodeBatch>> {
  const out = new Map<string, NodeBatch>();
  await Promise.all(
    nodes.map(async (n) => {
      const name = n.metadata.name!;
      const target = kubeletTarget(n, o);
      if ('error' in target) return onError(name, target.error);
      try {
        const text = await fetchText(target);
        out.set(name, decodeResourceMetrics(text, now()));
      } catch (e) {
        onError(name, (e as Error).message);
      }
    }),
  );
  return out;
}
