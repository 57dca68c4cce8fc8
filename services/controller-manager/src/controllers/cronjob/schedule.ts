// Schedule arithmetic for the CronJob controller (pkg/controller/cronjob/utils.go:
// mostRecentScheduleTime, nextScheduleTime, getJobName) over the cron-parser
// library; the syntax is checked by validation first (@kubelab/api cron.ts).

import { descriptorExpression } from '@kubelab/api';
import { parseDuration } from '@kubelab/component-base';
import { CronExpressionParser } from 'cron-parser';

/** Upstream stops counting missed runs past this many and warns (TooManyMissedTimes). */
export const MAX_MISSED = 100;

/** The zone a schedule without spec.timeZone runs in: the controller-manager's own, as upstream. */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export interface Schedule {
  /** The first run strictly after t. */
  next(t: number): number;
  /** The last run at or before t, of the runs that follow `from` (an `@every` schedule counts from there). */
  latest(t: number, from: number): number;
}

/** robfig/cron's Every: the delay in whole seconds, at least one. */
function everySchedule(delayMs: number): Schedule {
  const delay = Math.max(1000, delayMs - (delayMs % 1000));
  const second = (t: number) => Math.floor(t / 1000) * 1000;
  return {
    // ConstantDelaySchedule.Next: the delay after t, its fraction of a second dropped.
    next: (t) => second(t) + delay,
    latest: (t, from) => second(from) + Math.floor((t - second(from)) / delay) * delay,
  };
}

/** A parsed schedule in a zone, or the parser's error text (`@every <duration>` as robfig/cron's ConstantDelaySchedule). */
export function parseSchedule(schedule: string, tz: string): Schedule | { error: string } {
  const trimmed = schedule.trim();
  if (trimmed.startsWith('@every ')) {
    try {
      return everySchedule(parseDuration(trimmed.slice('@every '.length)));
    } catch (e) {
      return { error: `failed to parse duration ${trimmed}: ${(e as Error).message}` };
    }
  }
  const expr = descriptorExpression(schedule);
  try {
    CronExpressionParser.parse(expr, { tz, currentDate: new Date(0) });
  } catch (e) {
    return { error: (e as Error).message };
  }
  return {
    next: (t) =>
      CronExpressionParser.parse(expr, { tz, currentDate: new Date(t) })
        .next()
        .getTime(),
    latest: (t) =>
      CronExpressionParser.parse(expr, { tz, currentDate: new Date(t + 1) })
        .prev()
        .getTime(),
  };
}

/**
 * kubelab --time-scale: a cron job's schedule time runs `scale` times faster
 * than wall time from its creation (`anchor`), so an every-minute schedule at scale 10
 * runs every 6 s. Runs are named and stamped in schedule time; the status
 * keeps wall times (lastScheduleTime), rounded up to the second it stores.
 * The identity at scale 1.
 */
export interface ScheduleClock {
  toSchedule(wall: number): number;
  toWall(t: number): number;
  /** lastScheduleTime for the run at schedule time t: its wall time, rounded up to a whole second so it maps back to t or later. */
  stamp(t: number): number;
}

export function scheduleClock(anchor: number, scale: number): ScheduleClock {
  const toWall = (t: number) => anchor + (t - anchor) / scale;
  return {
    toSchedule: (wall) => anchor + (wall - anchor) * scale,
    toWall,
    stamp: (t) => Math.ceil(toWall(t) / 1000) * 1000,
  };
}

export interface RecentRun {
  /** The most recent run time not yet started (after `earliest`, at or before now), if any. */
  scheduled?: number;
  /** More than MAX_MISSED runs were missed. */
  tooManyMissed: boolean;
  /** The next run after now (for the requeue). */
  next: number;
}

/**
 * mostRecentScheduleTime: the runs between the last one started (or the
 * creation, or now - startingDeadlineSeconds, whichever is later) and now;
 * only the latest is started, as upstream.
 */
export function mostRecentScheduleTime(s: Schedule, earliest: number, now: number): RecentRun {
  let t = s.next(earliest);
  if (t > now) return { tooManyMissed: false, next: t };
  let missed = 0;
  let last = t;
  while (t <= now) {
    last = t;
    missed++;
    if (missed > MAX_MISSED) {
      // Too many to walk: the latest run at or before now is the one started.
      last = s.latest(now, earliest);
      // upstream nextScheduleTimeDuration: the run after the most recent one.
      return { scheduled: last, tooManyMissed: true, next: s.next(last) };
    }
    t = s.next(t);
  }
  return { scheduled: last, tooManyMissed: false, next: t };
}

/** getJobName: `<cronjob>-<scheduled time in minutes since the epoch>`. */
export function jobNameFor(cronJobName: string, scheduled: number): string {
  return `${cronJobName}-${Math.floor(scheduled / 60_000)}`;
}

/** The scheduled time as RFC 3339 in the schedule's zone (the cronjob-scheduled-timestamp annotation). */
export function rfc3339InZone(t: number, tz: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(t))
      .map((p) => [p.type, p.value]),
  );
  // Go prints a zero offset as Z, whatever the zone.
  const off = String(parts.timeZoneName).replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${off === '' || off === '+00:00' ? 'Z' : off}`;
}

/** Go's RFC1123Z, as upstream's MissSchedule event prints the time (UTC here). */
export function rfc1123z(t: number): string {
  const d = new Date(t);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}
