// @kubelab/client/testing: fakes for tests of code built on this library.

export { FakeClock, flushPromises } from './util/fake-clock.js';
export { FakeListWatch } from './testing/fake-listwatch.js';
export { FakeClientset, createFakeClientset, type Action, type Reactor, type Verb } from './testing/fake-clientset.js';
export { FakeRecorder } from './testing/fake-recorder.js';
