/**
 * Kafka's feature flags (KIP-584): what this broker supports and the finalized level of each, the one place
 * every layer asks "which behaviour is on" (ApiVersions lists them, UpdateFeatures changes them, the
 * transaction coordinator reads transaction.version).
 *
 * A feature is listed only where gregor has its behaviour: a level is advertised only when what it switches
 * on is implemented (the README lists which). A finalized level of 0 means "off" and is left out of the
 * finalized list, as Kafka does.
 */

export interface SupportedFeature {
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  /** The level a new cluster starts at (Kafka's default for a freshly formatted 4.3.1 cluster). */
  readonly defaultLevel: number;
}

/**
 * metadata.version from 3.3-IV3 (level 7, Kafka 4.x's floor) to 4.0-IV3 (level 25), finalized at the top;
 * kraft.version 0–1 at 0 (a single static voter, as a cluster formatted without --standalone).
 * transaction.version 0–2 at 2, Kafka 4.3.1's default (KIP-890 part 2: Produce v12+ adds partitions to the
 * transaction, EndTxn v5 bumps the epoch); at 0 or 1 Kafka 4.x clients keep to AddPartitionsToTxn and EndTxn ≤ v4.
 */
export const SUPPORTED_FEATURES: readonly SupportedFeature[] = [
  { name: 'kraft.version', minVersion: 0, maxVersion: 1, defaultLevel: 0 },
  { name: 'metadata.version', minVersion: 7, maxVersion: 25, defaultLevel: 25 },
  { name: 'transaction.version', minVersion: 0, maxVersion: 2, defaultLevel: 2 },
];

export interface FinalizedFeature {
  readonly name: string;
  readonly level: number;
}

export type FeaturesListener = (changed: readonly FinalizedFeature[]) => void;

/** The finalized levels in force, and their epoch (on a KRaft broker, the metadata offset they were read at). */
export class Features {
  readonly #supported: ReadonlyMap<string, SupportedFeature>;
  readonly #levels = new Map<string, number>();
  readonly #listeners = new Set<FeaturesListener>();
  #epoch: bigint;

  constructor(supported: readonly SupportedFeature[] = SUPPORTED_FEATURES, levels?: ReadonlyMap<string, number>, epoch = 1n) {
    this.#supported = new Map(supported.map((f) => [f.name, f]));
    for (const f of supported) this.#levels.set(f.name, levels?.get(f.name) ?? f.defaultLevel);
    this.#epoch = epoch;
  }

  get epoch(): bigint {
    return this.#epoch;
  }

  supported(): readonly SupportedFeature[] {
    return [...this.#supported.values()];
  }

  supportedFeature(name: string): SupportedFeature | undefined {
    return this.#supported.get(name);
  }

  /** The finalized level of a feature; 0 when it is off or unknown to this broker. */
  level(name: string): number {
    return this.#levels.get(name) ?? 0;
  }

  /** Finalized features with a level above 0, as ApiVersions and DescribeFeatures list them. */
  finalized(): FinalizedFeature[] {
    const out: FinalizedFeature[] = [];
    for (const [name, level] of this.#levels) if (level > 0) out.push({ name, level });
    return out;
  }

  /** Apply already-validated levels: one epoch step for the lot, then the listeners hear of it. */
  apply(changes: readonly FinalizedFeature[]): void {
    if (changes.length === 0) return;
    for (const c of changes) this.#levels.set(c.name, c.level);
    this.#epoch += 1n;
    for (const listener of this.#listeners) listener(changes);
  }

  onChange(listener: FeaturesListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
