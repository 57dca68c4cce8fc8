export * from './meta/types.js';
export * from './meta/status.js';
export * from './resources.js';
