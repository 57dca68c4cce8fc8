// crictl as a library: the CLI (runCrictl) and its pure formatters.

export { runCrictl, VERSION, DEFAULT_RUNTIME_ENDPOINTS, type AppIO } from './app.js';
export { formatContainers, formatPods, formatImages, truncatedId } from './format/lists.js';
export { parseCriLine } from './logs.js';
