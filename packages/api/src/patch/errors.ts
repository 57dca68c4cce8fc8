// Patch failures as the Status upstream's patch handler returns: a patch that
// cannot be decoded is 400 BadRequest, one that does not apply is 422
// (apiserver/pkg/endpoints/handlers/patch.go).

import { StatusError, badRequest } from '../meta/status.js';

export function patchNotApplicable(message: string): StatusError {
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Invalid', code: 422 });
}

export function badPatch(message: string): StatusError {
  return badRequest(message);
}
