// CoreDNS's forward plugin, in small: a query the kubernetes plugin does not
// answer goes to the upstream nameservers (`forward . /etc/resolv.conf`: the
// pod's own resolv.conf, the node's under dnsPolicy Default) over UDP, each
// tried in turn with a 2 s read timeout; none answering is SERVFAIL.

import { createSocket } from 'node:dgram';
import { isIP } from 'node:net';

export interface Upstream {
  host: string;
  port: number;
}

/** The nameservers of a resolv.conf text. */
export function resolvConfNameservers(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((w) => w[0] === 'nameserver' && w[1] !== undefined && isIP(w[1]!) !== 0)
    .map((w) => w[1]!);
}

/** forward's TO arguments: `8.8.8.8`, `127.0.0.1:5353`, `dns://1.1.1.1`, `[::1]:53`; files are read by the caller. */
export function parseUpstream(to: string): Upstream | undefined {
  const t = to.replace(/^dns:\/\//, '');
  if (isIP(t)) return { host: t, port: 53 };
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(t);
  if (m && isIP(m[1]!)) return { host: m[1]!, port: Number(m[2]) };
  return undefined;
}

/** Sends the query to each upstream in turn; the first reply, or undefined when none answers in time. */
export async function forwardQuery(query: Buffer, upstreams: readonly Upstream[], timeoutMs = 2000): Promise<Buffer | undefined> {
  for (const u of upstreams) {
    const reply = await new Promise<Buffer | undefined>((resolve) => {
      const sock = createSocket(isIP(u.host) === 6 ? 'udp6' : 'udp4');
      const done = (r: Buffer | undefined) => {
        clearTimeout(timer);
        sock.close();
        resolve(r);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      sock.on('error', () => done(undefined));
      sock.on('message', (msg) => done(msg));
      sock.send(query, u.port, u.host, (err) => err && done(undefined));
    });
    if (reply) return reply;
  }
  return undefined;
}
