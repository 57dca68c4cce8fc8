// `kubelab trace`: follow the CRI calls every kubelet makes to its runtime,
// one line per call, as they happen (upstream has no such view; it traces the
// CRI client with OpenTelemetry, KEP-2831 — this is the same conversation,
// readable in a terminal).

import type { NatsConnection } from '@nats-io/transport-node';
import { FlagError } from '@kubelab/component-base';
import { TRACE_NATS_IDENTITY } from '@kubelab/nats';
import { connectNats, NOT_RUNNING } from '../nats.js';
import { decodeCriCallRecord } from '@kubelab/proto/cri-record';
import { parseTraceArgs, traceFlags, type TraceOptions } from './args.js';
import { classify, subjectFor } from './filter.js';
import { formatLine, hiddenLine, HiddenTally, toJson } from './format.js';
import { ensureCriStream, liveSource, replaySource, type RecordSource } from './source.js';

export interface TraceIo {
  /** One output line (stdout), without the newline. */
  out(line: string): void;
  /** A status line for people (stderr). */
  note(line: string): void;
  color: boolean;
  utc?: boolean;
  /** Aborting stops the viewer (Ctrl-C). */
  signal: AbortSignal;
  /** How often the hidden-relist line may appear. */
  hiddenEveryMs?: number;
}

export async function runTrace(opts: TraceOptions, io: TraceIo): Promise<number> {
  let nc: NatsConnection;
  try {
    nc = await connectNats({ url: opts.natsUrl, ...(opts.natsTls ? { tls: opts.natsTls } : {}) }, TRACE_NATS_IDENTITY, 'kubelab-trace', { maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  } catch (err) {
    io.note(`kubelab trace: cannot connect to NATS at ${opts.natsUrl}: ${(err as Error).message}; ${NOT_RUNNING}`);
    return 1;
  }
  let source: RecordSource | undefined;
  const tally = new HiddenTally(io.hiddenEveryMs ?? 10_000, Date.now());
  const reportHidden = (force: boolean) => {
    const n = tally.due(Date.now(), force);
    if (n !== undefined && !opts.json) io.out(hiddenLine(n, io.color));
  };
  const timer = setInterval(() => reportHidden(false), Math.min(1000, io.hiddenEveryMs ?? 1000));
  try {
    const stream = await ensureCriStream(nc);
    const subject = subjectFor(opts.filter);
    if (opts.since) {
      if (stream.state === 'unavailable') {
        io.note(`kubelab trace: --since needs JetStream on ${opts.natsUrl} (nats-server -js) to keep the calls: ${stream.reason ?? 'not available'}`);
        return 1;
      }
      source = await replaySource(nc, subject, opts.since);
    } else {
      source = await liveSource(nc, subject);
    }
    const from = opts.since ? ` since ${opts.since.toISOString()}` : '';
    const hidden = opts.filter.all ? '' : '; relist calls hidden (--all shows them)';
    io.note(`watching CRI calls on ${opts.natsUrl} (${subject})${from}${hidden}; Ctrl-C stops`);

    const src = source;
    const stop = () => void src.stop();
    if (io.signal.aborted) stop();
    io.signal.addEventListener('abort', stop, { once: true });
    for await (const data of src) {
      const rec = decodeCriCallRecord(data);
      if (!rec) continue;
      const verdict = classify(rec, opts.filter);
      if (verdict === 'hidden-relist') tally.note();
      else if (verdict === 'show') io.out(opts.json ? JSON.stringify(toJson(rec)) : formatLine(rec, io));
    }
    reportHidden(true);
    return 0;
  } finally {
    clearInterval(timer);
    await source?.stop().catch(() => {});
    await nc.close().catch(() => {});
  }
}

/** The `case 'trace':` of main.ts: flags → viewer on stdout until Ctrl-C. */
export async function traceCommand(argv: string[]): Promise<number> {
  let opts: TraceOptions;
  try {
    opts = parseTraceArgs(argv);
  } catch (err) {
    if (err instanceof FlagError) {
      const usage = traceFlags().usage();
      process.stderr.write(err.message === usage ? `${usage}\n` : `kubelab trace: ${err.message}\n`);
      return err.message === usage ? 0 : 2;
    }
    throw err;
  }
  const ac = new AbortController();
  const onSignal = () => ac.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // `kubelab trace | head`: a closed pipe ends the viewer quietly.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') ac.abort();
  });
  try {
    return await runTrace(opts, {
      out: (line) => {
        if (!ac.signal.aborted) process.stdout.write(line + '\n');
      },
      note: (line) => process.stderr.write(line + '\n'),
      color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
      signal: ac.signal,
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
