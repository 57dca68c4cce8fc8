// Fakes for sync tests (client-go's record.FakeRecorder and a controller
// context over the fake clientset).

import type { EventRecorder, EventSubject } from '@kubelab/client';
import { SharedInformerFactory } from '@kubelab/client';
import { createFakeClientset, FakeClock, type FakeClientset } from '@kubelab/client/testing';
import { format } from 'node:util';
import { defaultConfig, type ControllerManagerConfig } from '../options.js';
import type { ControllerContext } from '../util/controller.js';
import { quietLogger } from './harness.js';

/** Events as "<type> <reason> <message>" lines, as record.FakeRecorder. */
export class FakeRecorder implements EventRecorder {
  readonly events: string[] = [];
  event(_o: EventSubject, type: string, reason: string, message: string): void {
    this.events.push(`${type} ${reason} ${message}`);
  }
  eventf(o: EventSubject, type: 'Normal' | 'Warning', reason: string, fmt: string, ...args: unknown[]): void {
    this.event(o, type, reason, format(fmt.replace(/%v/g, '%s'), ...args));
  }
  annotatedEventf(o: EventSubject, _a: Record<string, string>, type: 'Normal' | 'Warning', reason: string, fmt: string, ...args: unknown[]): void {
    this.eventf(o, type, reason, fmt, ...args);
  }
}

export interface FakeEnv {
  fake: FakeClientset;
  clock: FakeClock;
  recorder: FakeRecorder;
  ctx: ControllerContext;
  /** Starts the informers and waits for their first list (call after building controllers). */
  sync(): Promise<void>;
  stop(): Promise<void>;
}

export function fakeEnv(config: Partial<ControllerManagerConfig> = {}): FakeEnv {
  const clock = new FakeClock('2026-01-01T00:00:00Z');
  const fake = createFakeClientset(() => clock.now());
  const recorder = new FakeRecorder();
  const informers = new SharedInformerFactory(fake.clientset);
  const ctx: ControllerContext = { clientset: fake.clientset, informers, recorder: () => recorder, clock, logger: quietLogger(), config: { ...defaultConfig(), ...config } };
  return {
    fake,
    clock,
    recorder,
    ctx,
    async sync() {
      informers.start();
      await informers.waitForCacheSync();
      fake.clearActions();
    },
    async stop() {
      await informers.shutdown();
      fake.closeWatches();
    },
  };
}
