// Summaries over repeated runs: percentiles of samples, and min / median / max of a figure or of a ratio.

/** The p-th percentile (0-100) by nearest rank; NaN for no samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  // The epsilon keeps 99.9% of 1000 at rank 999 despite 0.999 * 1000 = 999.0000000000001.
  const rank = Math.ceil((p / 100) * sorted.length - 1e-9);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface Spread {
  min: number;
  median: number;
  max: number;
  /** How many values were summarised. */
  n: number;
}

/** min, median (mean of the middle two for an even count) and max; NaN values are left out. */
export function spread(values: readonly number[]): Spread {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { min: NaN, median: NaN, max: NaN, n: 0 };
  const median = n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  return { min: sorted[0]!, median, max: sorted[n - 1]!, n };
}

/** gregor/Kafka for each run in which both brokers produced the figure. */
export function pairedRatios(gregor: readonly (number | undefined)[], kafka: readonly (number | undefined)[]): number[] {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(gregor.length, kafka.length); i++) {
    const g = gregor[i];
    const k = kafka[i];
    if (g !== undefined && k !== undefined && Number.isFinite(g) && Number.isFinite(k) && k !== 0) ratios.push(g / k);
  }
  return ratios;
}
