/**
 * A metric whose values are read from the broker when Prometheus scrapes (prom-client's collector form: an
 * object with name, help, type and get()). The counts themselves live where they are made (plain numbers on
 * the hot paths); prom-client only formats them.
 */
import type { Registry } from 'prom-client';

export type Labels = Record<string, string | number>;

export interface Sample {
  readonly labels: Labels;
  readonly value: number;
  /** A histogram's series (`_bucket`, `_sum`, `_count`); default the metric's name. */
  readonly metricName?: string;
}

export interface ScrapedMetricSpec {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  /** The samples now; nothing when the broker is still starting. */
  readonly collect: () => Sample[] | Promise<Sample[]>;
}

export function registerScraped(registry: Registry, spec: ScrapedMetricSpec): void {
  const metric = {
    name: spec.name,
    help: spec.help,
    type: spec.type,
    aggregator: 'sum',
    async get() {
      return { name: spec.name, help: spec.help, type: spec.type, aggregator: 'sum', values: await spec.collect() };
    },
  };
  registry.registerMetric(metric as unknown as Parameters<Registry['registerMetric']>[0]);
}
