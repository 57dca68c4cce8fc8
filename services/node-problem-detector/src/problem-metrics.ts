// problem_counter and problem_gauge (upstream pkg/problemmetrics): how often
// each problem reason occurred, and whether each condition type is affected
// now under its current reason (the previous reason's series drops to 0).
// Labels in the order upstream's scrape prints them (Prometheus sorts them by
// name): problem_gauge{reason="DockerHung",type="KernelDeadlock"}.

import type { Registry } from 'prom-client';
import { FastCounter, FastGauge } from '@kubelab/component-base';

export class ProblemMetrics {
  readonly counter: FastCounter;
  readonly gauge: FastGauge;
  private readonly reasonOfType = new Map<string, string>();

  constructor(registry: Registry) {
    this.counter = new FastCounter(registry, 'problem_counter', 'Number of times a specific type of problem have occurred.', ['reason']);
    this.gauge = new FastGauge(registry, 'problem_gauge', 'Whether a specific type of problem is affecting the node or not.', ['reason', 'type']);
  }

  incrementProblemCounter(reason: string, count: number): void {
    this.counter.inc([reason], count);
  }

  setProblemGauge(type: string, reason: string, value: boolean): void {
    const last = this.reasonOfType.get(type);
    if (last !== undefined) this.set(type, last, 0);
    this.reasonOfType.set(type, reason);
    this.set(type, reason, value ? 1 : 0);
  }

  /** Series of every rule at start: counters at 0, permanent rules' gauges False (initializeProblemMetrics). */
  initializeRules(rules: readonly { type: string; condition?: string; reason: string }[]): void {
    for (const r of rules) {
      if (r.type === 'permanent') this.setProblemGauge(r.condition ?? '', r.reason, false);
      this.incrementProblemCounter(r.reason, 0);
    }
  }

  private set(type: string, reason: string, v: number): void {
    this.gauge.add([reason, type], v - this.gauge.get([reason, type]));
  }
}
