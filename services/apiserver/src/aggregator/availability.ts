// The checks of the aggregator's availability controller (upstream:
// kube-aggregator's AvailableConditionController.sync), as pure functions:
// a Local APIService is always available; a remote one needs its Service,
// the port it names, and endpoints with addresses on that port's name; then
// the discovery check (GET /apis/<group>/<version> on the backend) decides.

import type { APIService, APIServiceCondition, Endpoints, Service } from '@kubelab/api';

export type AvailableCheck = Omit<APIServiceCondition, 'type' | 'lastTransitionTime'>;

const fail = (reason: string, message: string): AvailableCheck => ({ status: 'False', reason, message });

/** The port an APIService points at (upstream defaults spec.service.port to 443). */
export const servicePortOf = (a: APIService): number => a.spec?.service?.port ?? 443;

/**
 * What the Service and its Endpoints say before any request is sent:
 * a failed condition, `local` (nothing to reach), or `check` (the discovery
 * request decides). A Service of another type than ClusterIP skips the port
 * and endpoint checks, as upstream.
 */
export function staticAvailability(a: APIService, svc: Service | undefined, eps: Endpoints | undefined): { condition: AvailableCheck } | { check: true } {
  const ref = a.spec?.service;
  if (!ref) return { condition: { status: 'True', reason: 'Local', message: 'Local APIServices are always available' } };
  const where = `service/${ref.name ?? ''} in ${JSON.stringify(ref.namespace ?? '')}`;
  if (!svc) return { condition: fail('ServiceNotFound', `${where} is not present`) };
  if ((svc.spec?.type ?? 'ClusterIP') === 'ClusterIP') {
    const port = servicePortOf(a);
    const sp = (svc.spec?.ports ?? []).find((p) => p.port === port);
    if (!sp) return { condition: fail('ServicePortError', `${where} is not listening on port ${port}`) };
    if (!eps) return { condition: fail('EndpointsNotFound', `cannot find endpoints for ${where}`) };
    const portName = sp.name ?? '';
    const active = (eps.subsets ?? []).some((s) => (s.addresses ?? []).length > 0 && (s.ports ?? []).some((p) => (p.name ?? '') === portName));
    if (!active) return { condition: fail('MissingEndpoints', `endpoints for ${where} have no addresses with port name ${JSON.stringify(portName)}`) };
  }
  return { check: true };
}

/** The condition after the discovery check: its error (FailedDiscoveryCheck) or all checks passed. */
export function discoveryAvailability(error: string | undefined): AvailableCheck {
  return error ? fail('FailedDiscoveryCheck', error) : { status: 'True', reason: 'Passed', message: 'all checks passed' };
}

/**
 * The Available condition to store: lastTransitionTime kept while the status
 * holds, set to `now` when it changes (upstream SetAPIServiceCondition).
 */
export function withAvailable(a: APIService, check: AvailableCheck, now: string): APIServiceCondition[] {
  const conditions = a.status?.conditions ?? [];
  const old = conditions.find((c) => c.type === 'Available');
  const next: APIServiceCondition = { type: 'Available', status: check.status, lastTransitionTime: old && old.status === check.status ? old.lastTransitionTime! : now };
  if (check.reason) next.reason = check.reason;
  if (check.message) next.message = check.message;
  return old ? conditions.map((c) => (c.type === 'Available' ? next : c)) : [...conditions, next];
}

/** An endpoint to send requests to: an address of the Service's endpoints on the target port (upstream ResolveEndpoint with endpoint routing). */
export function resolveEndpoint(
  a: APIService,
  svc: Service | undefined,
  eps: Endpoints | undefined,
  pick: (n: number) => number = (n) => Math.floor(Math.random() * n),
): { host: string; port: number } | { error: string } {
  const ref = a.spec?.service;
  if (!ref) return { error: 'local APIService' };
  if (!svc) return { error: `service "${ref.name ?? ''}" not found` };
  const port = servicePortOf(a);
  const sp = (svc.spec?.ports ?? []).find((p) => p.port === port);
  if (!sp) return { error: `no service port ${port} found for service "${ref.name ?? ''}"` };
  const candidates: { host: string; port: number }[] = [];
  for (const s of eps?.subsets ?? []) {
    const ep = (s.ports ?? []).find((p) => (p.name ?? '') === (sp.name ?? ''));
    if (!ep) continue;
    for (const addr of s.addresses ?? []) candidates.push({ host: addr.ip, port: ep.port });
  }
  if (candidates.length === 0) return { error: `no endpoints available for service "${ref.name ?? ''}"` };
  return candidates[pick(candidates.length)]!;
}
