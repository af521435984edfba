// Kafka 4.3.1's client metrics subscription configs (ClientMetricsConfigs: ConfigResource type CLIENT_METRICS,
// KIP-714). Kafka stores and describes them without a telemetry plugin; gregor does the same (no client is
// told to push metrics, as a Kafka broker without a metrics reporter tells none).
import { custom, int, list, named } from './define.js';
import type { ConfigDefinition } from './config-types.js';

/** The client selectors a "match" entry may name (Kafka's ALLOWED_MATCH_PARAMS). */
const MATCH_PARAMS: ReadonlySet<string> = new Set([
  'client_instance_id', 'client_id', 'client_software_name', 'client_software_version', 'client_source_address', 'client_source_port',
]);

/** Kafka's ValidList.anyNonDuplicateValues(true, false): its problem is Kafka's whole message for an empty item. */
const noEmptyItems = (name: string) => custom<string[]>('', (items) =>
  items.some((item) => item === '') ? `Configuration '${name}' values must not be empty.` : null);

export const clientMetricsConfigDefinitions = named({
  'metrics': list({ default: [], valid: noEmptyItems('metrics'), mode: 'cluster-wide', doc: 'Prefixes of the metric names the matching clients push.' }),
  'interval.ms': int({ default: 300000, mode: 'cluster-wide', doc: 'How often the matching clients push their metrics, in milliseconds.' }),
  'match': list({ default: [], valid: noEmptyItems('match'), mode: 'cluster-wide', doc: 'Which clients the subscription selects: selector=regex entries.' }),
});

export type ClientMetricsConfigKey = keyof typeof clientMetricsConfigDefinitions;

/** The order DescribeConfigs lists them in (Kafka 4.3.1's HashMap order). */
export const CLIENT_METRICS_DESCRIBE_ORDER: readonly ClientMetricsConfigKey[] = ['interval.ms', 'match', 'metrics'];

export function clientMetricsConfigDefinition(name: string): ConfigDefinition | undefined {
  return Object.hasOwn(clientMetricsConfigDefinitions, name)
    ? clientMetricsConfigDefinitions[name as ClientMetricsConfigKey] as ConfigDefinition
    : undefined;
}

const MIN_INTERVAL_MS = 100;
const MAX_INTERVAL_MS = 3600000;

/** Kafka's ClientMetricsConfigs range check on interval.ms (INVALID_REQUEST), or null. */
export function clientMetricsIntervalProblem(interval: number): string | null {
  return interval < MIN_INTERVAL_MS || interval > MAX_INTERVAL_MS
    ? `Invalid value ${interval} for interval.ms, interval must be between ${MIN_INTERVAL_MS} and ${MAX_INTERVAL_MS} (1 hour)`
    : null;
}

/** Kafka's parseMatchingPatterns: each entry selector=regex, a known selector, a regex that compiles; the message or null. */
export function clientMetricsMatchProblem(entries: readonly string[]): string | null {
  for (const entry of entries) {
    // Java's split("=") drops trailing empty parts: "client_id=" is one part, not two.
    const parts = entry.split('=');
    while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    const illegal = `Illegal client matching pattern: ${entry}`;
    if (parts.length !== 2 || !MATCH_PARAMS.has(parts[0]!.trim())) return illegal;
    try {
      new RegExp(parts[1]!.trim(), 'u');
    } catch {
      return illegal;
    }
  }
  return null;
}
