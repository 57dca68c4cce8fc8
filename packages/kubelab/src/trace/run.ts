// `kubelab trace`: follow the CRI calls every kubelet makes to its runtime,
// one line per call, as they happen (upstream has no such view; it traces the
// CRI client with OpenTelemetry, KEP-2831 — this is the same conversation,
// readable in a terminal).

import type { NatsConnection } from '@nats-io/transport-node';
import { FlagError } from '@kubelab/component-base';
import { announceListening, TRACE_NATS_IDENTITY, type Announcement } from '@kubelab/nats';
import { connectNats, NOT_RUNNING } from '../nats.js';
import { decodeCriCallRecord } from '@kubelab/proto/cri-record';
import { API_SUBJECT_ALL, decodeApiWriteRecord } from '@kubelab/proto/api-record';
import { decodeSchedulingDecisionRecord, SCHED_SUBJECT_ALL } from '@kubelab/proto/sched-record';
import { decodeProxySyncRecord, PROXY_SUBJECT_ALL } from '@kubelab/proto/proxy-record';
import { parseTraceArgs, traceFlags, type TraceOptions } from './args.js';
import { classify, classifyApi, classifyProxy, classifySched, subjectFor } from './filter.js';
import { apiToJson, formatApiLine, formatLine, formatProxyLine, formatSchedLine, hiddenLine, HiddenTally, lateMark, toJson } from './format.js';
import { DEFAULT_HOLD_MS, StartOrder } from './order.js';
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
  let apiSource: RecordSource | undefined;
  let schedSource: RecordSource | undefined;
  let proxySource: RecordSource | undefined;
  let announcement: Announcement | undefined;
  // Lines leave in start order: each is held briefly (order.ts), then let out.
  const holdMs = opts.holdMs ?? DEFAULT_HOLD_MS;
  const order = new StartOrder<string>(holdMs, (line, late) => io.out(late && !opts.json ? `${line}${lateMark(io.color)}` : line));
  const tally = new HiddenTally(io.hiddenEveryMs ?? 10_000, Date.now());
  const reportHidden = (force: boolean) => {
    const n = tally.due(Date.now(), force);
    if (n !== undefined && !opts.json) io.out(hiddenLine(n, io.color));
  };
  const timer = setInterval(() => reportHidden(false), Math.min(1000, io.hiddenEveryMs ?? 1000));
  const releaser = setInterval(() => order.release(Date.now()), Math.max(10, Math.min(50, holdMs / 5)));
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
    // The apiserver's writes are live only (no stream keeps them).
    if (opts.allComponents) apiSource = await liveSource(nc, API_SUBJECT_ALL);
    // And the scheduler's decisions, one line each (live only too).
    if (opts.allComponents) schedSource = await liveSource(nc, SCHED_SUBJECT_ALL);
    // And kube-proxy's rules syncs, one line per syncProxyRules of each node.
    if (opts.allComponents) proxySource = await liveSource(nc, PROXY_SUBJECT_ALL);
    // Both record only while someone reads (@kubelab/nats listeners.ts): say so, and wait until they heard it.
    if (opts.allComponents) {
      announcement = announceListening(nc, ['api', 'sched']);
      await announcement.ready;
    }
    const from = opts.since ? ` since ${opts.since.toISOString()}` : '';
    const hidden = opts.filter.all ? '' : '; relist calls hidden (--all shows them)';
    const api = opts.allComponents ? `, the apiserver's writes (${API_SUBJECT_ALL}), the scheduler's decisions (${SCHED_SUBJECT_ALL}) and kube-proxy's syncs (${PROXY_SUBJECT_ALL})` : '';
    io.note(`watching CRI calls on ${opts.natsUrl} (${subject})${api}${from}${hidden}; lines in start order; Ctrl-C stops`);

    const src = source;
    const apiSrc = apiSource;
    const schedSrc = schedSource;
    const proxySrc = proxySource;
    const stop = () => {
      void src.stop();
      void apiSrc?.stop();
      void schedSrc?.stop();
      void proxySrc?.stop();
    };
    if (io.signal.aborted) stop();
    io.signal.addEventListener('abort', stop, { once: true });
    const cri = (async () => {
      for await (const data of src) {
        const rec = decodeCriCallRecord(data);
        if (!rec) continue;
        const verdict = classify(rec, opts.filter);
        if (verdict === 'hidden-relist') tally.note();
        else if (verdict === 'show') order.push(Date.parse(rec.time), opts.json ? JSON.stringify(toJson(rec)) : formatLine(rec, io));
      }
    })();
    // The other components' records: one line each, in the same start order as the CRI calls.
    const follow = async <R extends { time: string }>(
      from: RecordSource | undefined,
      decode: (data: string) => R | undefined,
      shown: (rec: R) => boolean,
      json: (rec: R) => object,
      text: (rec: R) => string,
    ) => {
      if (!from) return;
      for await (const data of from) {
        const rec = decode(data);
        if (rec && shown(rec)) order.push(Date.parse(rec.time), opts.json ? JSON.stringify(json(rec)) : text(rec));
      }
    };
    const writes = follow(
      apiSrc,
      decodeApiWriteRecord,
      (r) => classifyApi(r, opts.filter) === 'show',
      apiToJson,
      (r) => formatApiLine(r, io),
    );
    const decisions = follow(
      schedSrc,
      decodeSchedulingDecisionRecord,
      (r) => classifySched(r, opts.filter) === 'show',
      (r) => ({ source: 'kube-scheduler', ...r }),
      (r) => formatSchedLine(r, io),
    );
    const syncs = follow(
      proxySrc,
      decodeProxySyncRecord,
      (r) => classifyProxy(r, opts.filter) === 'show',
      (r) => ({ source: 'kube-proxy', ...r }),
      (r) => formatProxyLine(r, io),
    );
    await Promise.all([cri, writes, decisions, syncs]);
    order.drain();
    reportHidden(true);
    return 0;
  } finally {
    clearInterval(timer);
    clearInterval(releaser);
    announcement?.stop();
    order.drain();
    await source?.stop().catch(() => {});
    await apiSource?.stop().catch(() => {});
    await schedSource?.stop().catch(() => {});
    await proxySource?.stop().catch(() => {});
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
