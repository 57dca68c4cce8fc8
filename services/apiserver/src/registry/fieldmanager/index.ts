// Managed fields and server-side apply (upstream k8s.io/apimachinery
// util/managedfields over sigs.k8s.io/structured-merge-diff).

export { FieldManager, BEFORE_FIRST_APPLY, type Writer } from './fieldmanager.js';
export { managerName } from './user-agent.js';
export { fieldManagerErrors, patchOptionsErrors } from './options.js';
export { ANCIENT_CHANGES, MAX_UPDATE_MANAGERS } from './managed.js';
