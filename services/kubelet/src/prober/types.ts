// Probe kinds and the defaults the API server applies to probes (upstream
// SetDefaults_Probe), repeated here so a spec that skipped defaulting (a
// static pod file) behaves the same.

import type { Probe } from '@kubelab/api';

export type ProbeType = 'Liveness' | 'Readiness' | 'Startup';

export interface ProbeTimings {
  initialDelaySeconds: number;
  timeoutSeconds: number;
  periodSeconds: number;
  successThreshold: number;
  failureThreshold: number;
}

export function probeTimings(p: Probe): ProbeTimings {
  return {
    initialDelaySeconds: p.initialDelaySeconds ?? 0,
    timeoutSeconds: p.timeoutSeconds || 1,
    periodSeconds: p.periodSeconds || 10,
    successThreshold: p.successThreshold || 1,
    failureThreshold: p.failureThreshold || 3,
  };
}

/** Printed in events as upstream's probeType String(). */
export function probeTypeText(t: ProbeType): string {
  return t;
}
