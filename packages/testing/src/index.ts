export { freePort } from './ports.js';
export { which, requirePrerequisite, requireTool, slowTestsEnabled, underCI } from './tools.js';
export { startNatsServer, waitForPort, type NatsServerHandle, type NatsServerOptions } from './nats.js';
export { waitFor, retrying, type WaitOptions } from './wait.js';
export { endProcesses, exitSignal } from './child.js';
export { PROBEDEMO_MANIFEST } from './seeds.js';
export { secureGet, secureRequest, type SecureGetOptions, type SecureResponse } from './https.js';
