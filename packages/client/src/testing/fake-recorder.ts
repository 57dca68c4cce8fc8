// client-go's record.FakeRecorder: keeps each event as one
// "<type> <reason> <message>" line so sync tests can compare them exactly.

import { sprintf, type EventRecorder, type EventSubject, type EventType } from '../events/recorder.js';

export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];

  event(_obj: EventSubject, type: EventType, reason: string, message: string): void {
    this.events.push(`${type} ${reason} ${message}`);
  }

  eventf(obj: EventSubject, type: EventType, reason: string, format: string, ...args: unknown[]): void {
    this.event(obj, type, reason, sprintf(format, args));
  }

  annotatedEventf(obj: EventSubject, _annotations: Record<string, string>, type: EventType, reason: string, format: string, ...args: unknown[]): void {
    this.eventf(obj, type, reason, format, ...args);
  }
}
