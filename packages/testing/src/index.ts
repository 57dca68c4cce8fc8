export { freePort } from './ports.js';
export { which, requirePrerequisite, requireTool, slowTestsEnabled, underCI } from './tools.js';
export { startNatsServer, waitForPort, type NatsServerHandle } from './nats.js';
export { waitFor, type WaitOptions } from './wait.js';
export { PROBEDEMO_MANIFEST } from './seeds.js';
