/**
 * The Prometheus registry /metrics exposes, one per HTTP listener (tests run several brokers in one process):
 * prom-client's process and Node.js metrics (CPU, memory, event-loop lag), then the broker's collectors, which
 * read the broker at scrape time. Other modules register their own metrics on HttpContext.metrics.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { HttpContext } from '../context.js';
import { registerGroupMetrics } from './group-metrics.js';
import { registerLogMetrics } from './log-metrics.js';
import { registerRequestMetrics } from './request-metrics.js';

export interface MetricsRegistry {
  readonly registry: Registry;
  /** Registers the broker's collectors (they report nothing until start-up is complete). */
  addBrokerCollectors(ctx: HttpContext): void;
  close(): void;
}

export function createMetricsRegistry(): MetricsRegistry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    addBrokerCollectors(ctx) {
      registerRequestMetrics(registry, ctx);
      registerLogMetrics(registry, ctx);
      registerGroupMetrics(registry, ctx);
    },
    close() {
      registry.clear();
    },
  };
}
