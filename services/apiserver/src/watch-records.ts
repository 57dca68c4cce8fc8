// What the apiserver's watches deliver to whom, as kubelab's own telemetry
// for the dashboard's message flow: informer events reaching the scheduler,
// the controller-manager and the kubelets. Counting every event of every
// watcher into a record of its own would cost as much as the delivery, so
// deliveries are added up per watcher user, resource and event type and sent
// as one record per resource every 100 ms (`kubelab.api.watch.<resource>`),
// naming at most a few of the objects each sum covers. The record has no
// `verb` field, so readers of write records (`kubelab trace
// --all-components`) pass it by.

import type { WatchEvent } from '@kubelab/api';
import { apiRecordSubject } from '@kubelab/proto/api-record';

export interface WatchDelivery {
  /** The watcher's user (`system:kube-scheduler`, `system:node:node-1`). */
  user: string;
  /** ADDED, MODIFIED or DELETED. */
  type: string;
  count: number;
  /** Up to OBJECTS_PER_SUM `namespace/name`s (or names) of the delivered objects, first come. */
  objects: string[];
  /** When each of `objects` went out: ms after the record's `time`. */
  offsetsMs: number[];
}

export interface WatchDeliveryRecord {
  kind: 'WatchDeliveries';
  /** RFC 3339: the window's start. */
  time: string;
  windowMs: number;
  group: string;
  resource: string;
  deliveries: WatchDelivery[];
}

export const WATCH_RECORD_WINDOW_MS = 100;
const OBJECTS_PER_SUM = 5;

type Sum = WatchDelivery;

export class WatchDeliveryRecorder {
  /** resource key (group/resource) → watcher user → event type → sum. */
  private sums = new Map<string, { group: string; resource: string; byUser: Map<string, Map<string, Sum>> }>();
  private windowStart = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly publish: (subject: string, data: string) => void,
    /** Whether anyone reads the records now: deliveries are not even counted otherwise. */
    private readonly wanted: () => boolean = () => true,
    private readonly now: () => number = Date.now,
    windowMs = WATCH_RECORD_WINDOW_MS,
  ) {
    this.timer = setInterval(() => this.flush(windowMs), windowMs);
    this.timer.unref();
  }

  /** One batch a watch wrote to its client: a map lookup and a count per event, a name for the first few. */
  delivered(user: string, group: string, resource: string, events: readonly WatchEvent[]): void {
    if (!this.wanted()) return;
    let byType: Map<string, Sum> | undefined;
    for (const ev of events) {
      if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') continue;
      if (!byType) {
        const rk = group ? `${group}/${resource}` : resource;
        let r = this.sums.get(rk);
        if (!r) this.sums.set(rk, (r = { group, resource, byUser: new Map() }));
        byType = r.byUser.get(user);
        if (!byType) r.byUser.set(user, (byType = new Map()));
        if (this.windowStart === 0) this.windowStart = this.now();
      }
      let s = byType.get(ev.type);
      if (!s) byType.set(ev.type, (s = { user, type: ev.type, count: 0, objects: [], offsetsMs: [] }));
      s.count++;
      if (s.objects.length < OBJECTS_PER_SUM) {
        const m = ev.object?.metadata;
        if (m?.name) {
          s.objects.push(m.namespace ? `${m.namespace}/${m.name}` : m.name);
          s.offsetsMs.push(this.now() - this.windowStart);
        }
      }
    }
  }

  flush(windowMs = WATCH_RECORD_WINDOW_MS): void {
    if (this.sums.size === 0) return;
    const time = new Date(this.windowStart || this.now()).toISOString();
    const sums = this.sums;
    this.sums = new Map();
    this.windowStart = 0;
    for (const { group, resource, byUser } of sums.values()) {
      const deliveries: WatchDelivery[] = [];
      for (const byType of byUser.values()) deliveries.push(...byType.values());
      const rec: WatchDeliveryRecord = { kind: 'WatchDeliveries', time, windowMs, group, resource, deliveries };
      this.publish(apiRecordSubject('watch', resource), JSON.stringify(rec));
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
