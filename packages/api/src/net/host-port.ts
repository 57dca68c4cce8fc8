// Go's net.JoinHostPort: host and port as one address, an IPv6 literal in
// brackets ("[::1]:6443"), for dial strings, URLs and Host headers alike.

export function joinHostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
