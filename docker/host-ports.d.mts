// Types of docker/host-ports.mjs's pure helpers, for the tests that import them.
export function portRange(text: string): number[];
export function loadBalancerPorts(services: unknown[]): Map<string, { nodePort: number; ingress: string; port: number }>;
export function assignHostPorts(current: Map<string, number>, wanted: Map<string, unknown>, pool: number[]): Map<string, number>;
