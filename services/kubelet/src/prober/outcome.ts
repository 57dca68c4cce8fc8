// What a single probe attempt says (upstream pkg/probe.Result with its
// output or error), shared by the prober and each kind of probe.

export type ProbeOutcome = { result: 'Success' | 'Warning' | 'Failure'; output: string } | { result: 'Unknown'; error: string };
