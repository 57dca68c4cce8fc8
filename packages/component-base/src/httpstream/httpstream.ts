// The stream protocol handshake of k8s.io/apimachinery/pkg/util/httpstream:
// the client lists the protocols it speaks in X-Stream-Protocol-Version
// headers, the server picks the first of them it supports and names it in
// its 101 answer; with none in common it answers 403 listing its own in
// X-Accepted-Stream-Protocol-Versions. Also the names the protocols use.

export const HEADER_PROTOCOL_VERSION = 'X-Stream-Protocol-Version';
export const HEADER_ACCEPTED_PROTOCOL_VERSIONS = 'X-Accepted-Stream-Protocol-Versions';
export const SPDY_31 = 'SPDY/3.1';

/** remotecommand's protocols (exec, attach) over SPDY, newest first. */
export const REMOTECOMMAND_SPDY_PROTOCOLS = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] as const;
export type RemoteCommandSpdyProtocol = (typeof REMOTECOMMAND_SPDY_PROTOCOLS)[number];
/** Port forwarding's one SPDY protocol. */
export const PORT_FORWARD_PROTOCOL = 'portforward.k8s.io';
/** kubectl 1.30+ tunnels the SPDY port-forward protocol through a WebSocket with this subprotocol. */
export const WEBSOCKET_SPDY_TUNNEL_PREFIX = 'SPDY/3.1+';

/** Stream headers (spdystream lowercases names on the wire). */
export const StreamHeader = { streamType: 'streamtype', port: 'port', requestID: 'requestid' } as const;

export type Handshake = { ok: true; protocol: string } | { ok: false; code: 400 | 403; message: string; accepted?: readonly string[] };

/** The values of a possibly repeated, possibly comma-joined header (Node joins repeats with ", "). */
export function headerValues(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
}

/** upstream httpstream.Handshake: the client's first protocol the server supports, or the refusal. */
export function negotiateStreamProtocol(offered: string[], supported: readonly string[]): Handshake {
  if (offered.length === 0) return { ok: false, code: 400, message: `unable to upgrade: ${HEADER_PROTOCOL_VERSION} is required` };
  const protocol = offered.find((p) => supported.includes(p));
  if (protocol) return { ok: true, protocol };
  return {
    ok: false,
    code: 403,
    message: `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${supported.join(' ')}]`,
    accepted: supported,
  };
}

/** The 101 answer to a SPDY upgrade (upstream spdy.UpgradeResponse) naming the negotiated protocol. */
export function spdyUpgradeResponse(protocol: string): string {
  return `HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${SPDY_31}\r\n${HEADER_PROTOCOL_VERSION}: ${protocol}\r\n\r\n`;
}

/** The SPDY protocols a tunnelling WebSocket asks for (`SPDY/3.1+portforward.k8s.io` → `portforward.k8s.io`). */
export function tunneledSpdyProtocols(websocketProtocols: string[]): string[] {
  return websocketProtocols.filter((p) => p.startsWith(WEBSOCKET_SPDY_TUNNEL_PREFIX)).map((p) => p.slice(WEBSOCKET_SPDY_TUNNEL_PREFIX.length));
}
