// client-go's HTTP/2 connection health check (apimachinery's
// SetTransportDefaults: ReadIdleTimeout 30 s, PingTimeout 15 s, tunable
// with HTTP2_READ_IDLE_TIMEOUT_SECONDS and HTTP2_PING_TIMEOUT_SECONDS; a
// read-idle timeout of 0 turns it off). A connection is closed only when
// it has read nothing at all for the read-idle timeout plus the ping
// timeout: a busy connection whose pings are answered late behind its
// data stays up. (grpc-js's own keepalive closes a connection whose ping
// ack is late however much else it is reading; on an overloaded node
// that dropped hundreds of healthy connections at once, and every one
// came back as a new TLS handshake and a relist.)
//
// grpc-js still sends the pings (every read-idle timeout, with or without
// calls) so that a silent healthy connection reads an ack; its own ack
// timeout is set out of reach, and the socket's byte count decides here.

import type { Socket } from 'node:net';
import type * as grpc from '@grpc/grpc-js';

export interface HealthCheck {
  /** Nothing read for this long: ping (client-go's ReadIdleTimeout). */
  readIdleTimeoutMs: number;
  /** Then nothing read for this long more: the connection is lost (PingTimeout). */
  pingTimeoutMs: number;
}

const DEFAULT: HealthCheck = { readIdleTimeoutMs: 30_000, pingTimeoutMs: 15_000 };

/** How often the connections' byte counts are read. */
const CHECK_PERIOD_MS = 1_000;

function seconds(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const s = env[name];
  // strconv.Atoi: an optional sign and decimal digits; anything else keeps the default.
  return s !== undefined && /^[+-]?\d+$/.test(s) ? Number(s) * 1000 : fallback;
}

/**
 * The check from the environment as client-go reads it: unset or illegal
 * values keep the defaults; a read-idle timeout of 0 or less turns the
 * check off (undefined).
 */
export function healthCheckFromEnv(env: NodeJS.ProcessEnv = process.env): HealthCheck | undefined {
  const readIdleTimeoutMs = seconds(env, 'HTTP2_READ_IDLE_TIMEOUT_SECONDS', DEFAULT.readIdleTimeoutMs);
  return readIdleTimeoutMs > 0 ? { readIdleTimeoutMs, pingTimeoutMs: seconds(env, 'HTTP2_PING_TIMEOUT_SECONDS', DEFAULT.pingTimeoutMs) } : undefined;
}

/**
 * Whether a connection counts as lost at `now`: it has read nothing since
 * `lastReadAt` for the read-idle plus the ping timeout. A sweep that comes
 * late (`sinceLastSweepMs` past twice its period) judges no one: this process
 * was stalled itself (a hollow worker short of CPU), and what waited in its
 * sockets is read in the loop's next poll, before the next sweep.
 */
export function isLost(check: HealthCheck, lastReadAt: number, now: number, sinceLastSweepMs = CHECK_PERIOD_MS): boolean {
  return sinceLastSweepMs <= 2 * CHECK_PERIOD_MS && now - lastReadAt >= check.readIdleTimeoutMs + check.pingTimeoutMs;
}

/** The grpc-js channel options that make it ping on the check's schedule and never time a ping out itself. */
export function keepaliveOptions(check: HealthCheck | undefined): grpc.ChannelOptions {
  if (!check) return { 'grpc.keepalive_time_ms': -1 };
  return {
    'grpc.keepalive_time_ms': check.readIdleTimeoutMs,
    'grpc.keepalive_timeout_ms': 2 ** 31 - 1,
    'grpc.keepalive_permit_without_calls': 1,
  };
}

interface Watched {
  socket: Socket;
  check: HealthCheck;
  bytesRead: number;
  lastReadAt: number;
}

/** Every connection under a check in this process, read by one timer (a hollow worker holds hundreds). */
const watched = new Set<Watched>();
let timer: NodeJS.Timeout | undefined;
let lastSweepAt = 0;

function sweep(): void {
  const now = Date.now();
  const sinceLastSweepMs = now - lastSweepAt;
  lastSweepAt = now;
  for (const w of watched) {
    const n = w.socket.bytesRead;
    if (n !== w.bytesRead) {
      w.bytesRead = n;
      w.lastReadAt = now;
    } else if (isLost(w.check, w.lastReadAt, now, sinceLastSweepMs)) {
      watched.delete(w);
      // Closed without an error: grpc-js fails its calls UNAVAILABLE "Connection dropped" and reconnects.
      w.socket.destroy();
    }
  }
  if (watched.size === 0 && timer) {
    clearInterval(timer);
    timer = undefined;
  }
}

/** Puts a new connection under the check (the channel credentials call it for each connection they make). */
export function watchConnection(socket: Socket, check: HealthCheck): void {
  const w: Watched = { socket, check, bytesRead: socket.bytesRead, lastReadAt: Date.now() };
  watched.add(w);
  socket.once('close', () => watched.delete(w));
  // The sweep runs in the check phase, after the loop's poll phase: a process that was itself stalled
  // (a hollow worker short of CPU) reads what waited in its sockets before any connection is judged.
  if (!timer) {
    lastSweepAt = Date.now();
    (timer = setInterval(sweep, CHECK_PERIOD_MS)).unref();
  }
}
