// A controller context over the fake clientset for sync tests (the fake
// clientset, clock and event recorder come from @kubelab/client/testing).

import { SharedInformerFactory } from '@kubelab/client';
import { createFakeClientset, FakeClock, FakeRecorder, type FakeClientset } from '@kubelab/client/testing';
import { defaultConfig, type ControllerManagerConfig } from '../options.js';
import type { ControllerContext } from '../util/controller.js';
import { quietLogger } from './harness.js';

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
