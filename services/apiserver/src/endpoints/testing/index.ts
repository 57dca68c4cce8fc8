export { FakeRegistry, matchLabels, matchFields } from './fake-registry.js';
