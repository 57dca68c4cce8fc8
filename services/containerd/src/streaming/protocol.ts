// The remote command stream protocol over WebSocket (upstream
// k8s.io/apimachinery/pkg/util/remotecommand and httpstream/wsstream): every
// binary message starts with a channel byte — 0 stdin, 1 stdout, 2 stderr,
// 3 error (one metav1.Status once the command ends), 4 terminal resize — and
// v5.channel.k8s.io adds the CLOSE signal [255, channel] that half-closes a
// stream (stdin EOF). Pure functions, shared by the server and its tests.

export const STDIN = 0;
export const STDOUT = 1;
export const STDERR = 2;
export const ERROR = 3;
export const RESIZE = 4;
/** v5: `[CLOSE, channel]` says the sender will write no more on `channel`. */
export const CLOSE = 255;

export const V5 = 'v5.channel.k8s.io';
export const V4 = 'v4.channel.k8s.io';
/** In order of preference; kubectl 1.30+ offers only v5 over WebSocket. */
export const SUPPORTED_PROTOCOLS = [V5, V4] as const;
export type Protocol = (typeof SUPPORTED_PROTOCOLS)[number];

/** The subprotocol the server picks among those the client offered, or undefined. */
export function negotiate(offered: Iterable<string>): Protocol | undefined {
  const set = new Set(offered);
  return SUPPORTED_PROTOCOLS.find((p) => set.has(p));
}

export function frame(channel: number, data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  return Buffer.concat([Buffer.from([channel]), body]);
}

export type Frame = { kind: 'data'; channel: number; data: Buffer } | { kind: 'close'; channel: number } | { kind: 'empty' };

/** Splits a received message; only v5 knows CLOSE. */
export function parseFrame(msg: Buffer, protocol: Protocol): Frame {
  if (msg.length === 0) return { kind: 'empty' };
  const channel = msg[0]!;
  if (channel === CLOSE && protocol === V5 && msg.length >= 2) return { kind: 'close', channel: msg[1]! };
  return { kind: 'data', channel, data: msg.subarray(1) };
}

/** A resize message body: `{"Width":80,"Height":24}` (remotecommand.TerminalSize). */
export function parseResize(data: Buffer): { width: number; height: number } | undefined {
  try {
    const v = JSON.parse(data.toString('utf8')) as { Width?: unknown; Height?: unknown };
    if (typeof v.Width === 'number' && typeof v.Height === 'number') return { width: v.Width, height: v.Height };
  } catch {
    // a malformed resize is ignored, as upstream logs and drops it
  }
  return undefined;
}

export interface StreamStatus {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { causes: { reason: string; message: string }[] };
}

/** The error-channel Status for a finished command: Success, or NonZeroExitCode with the code as the ExitCode cause. */
export function exitStatus(exitCode: number, argv: string[]): StreamStatus {
  if (exitCode === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: command '${argv.join(' ')}' exited with ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}

/** The error-channel Status when the command could not run at all (kubectl prints `error: <message>`). */
export function failureStatus(message: string): StreamStatus {
  return { metadata: {}, status: 'Failure', message: `Internal error occurred: ${message}`, reason: 'InternalError' };
}

/** Which streams an exec asked for, from the CRI ExecRequest. */
export interface StreamOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** Upstream's rule: at least one stream; with a tty stderr is folded into stdout (the terminal has one output). */
export function validateStreams(o: StreamOptions): { ok: true; options: StreamOptions } | { ok: false; message: string } {
  if (!o.stdin && !o.stdout && !o.stderr) return { ok: false, message: 'you must specify at least 1 of stdin, stdout, stderr' };
  return { ok: true, options: o.tty ? { ...o, stderr: false } : o };
}
