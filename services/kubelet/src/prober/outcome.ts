// What one probe attempt says (upstream pkg/probe's Result plus its output):
// shared by the prober and each transport (the gRPC one included), so the
// transports need not import the prober that uses them.

export type ProbeOutcome = { result: 'Success' | 'Warning' | 'Failure'; output: string } | { result: 'Unknown'; error: string };
