// discovery.k8s.io/v1 defaulting (SetDefaults_EndpointPort): name "" and protocol TCP.
import type { EndpointSlice } from './types.js';

export function defaultEndpointSlice(es: EndpointSlice): void {
  for (const p of es.ports ?? []) {
    if (p.name === undefined || p.name === null) p.name = '';
    if (!p.protocol) p.protocol = 'TCP';
  }
}
