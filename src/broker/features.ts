/**
 * Kafka's feature flags (KIP-584): what this broker supports and the finalized level of each, the one place
 * every layer asks "which behaviour is on" (ApiVersions lists them, UpdateFeatures changes them, the
 * transaction coordinator reads transaction.version, AlterConfigs eligible.leader.replicas.version).
 *
 * A feature is listed only where gregor has its behaviour: a level is advertised only when what it switches
 * on is implemented (README, "Feature flags"). A feature gregor does not support at all is left out of the
 * supported list, as a Kafka node leaves out a feature whose highest level is 0 (QuorumFeatures); a finalized
 * level of 0 means "off" and is left out of the finalized list, as Kafka does.
 *
 * The finalized levels outlive a restart (feature-store.ts); the epoch goes up by one with every change.
 */
import { KafkaError } from '../protocol/kafka-error.js';
import type { FeatureStore } from './feature-store.js';
import { memoryFeatureStore } from './feature-store.js';

export interface SupportedFeature {
  readonly name: string;
  readonly minVersion: number;
  readonly maxVersion: number;
  /** The level a new cluster starts at (Kafka's default for a freshly formatted 4.3.1 cluster). */
  readonly defaultLevel: number;
  /** Levels of other features a level needs (Kafka's FeatureVersion.dependencies), by level. */
  readonly dependencies?: Readonly<Record<number, Readonly<Record<string, number>>>>;
}

export const METADATA_VERSION = 'metadata.version';
export const KRAFT_VERSION = 'kraft.version';
export const ELIGIBLE_LEADER_REPLICAS_VERSION = 'eligible.leader.replicas.version';
export const TRANSACTION_VERSION = 'transaction.version';
export const GROUP_VERSION = 'group.version';
export const SHARE_VERSION = 'share.version';
export const STREAMS_VERSION = 'streams.version';

/**
 * metadata.version from 3.3-IV3 (level 7, Kafka 4.x's floor) to 4.3-IV0 (level 30), finalized at the top: what it
 * gates is the metadata log's record formats and inter-broker versions, none of which gregor has, and the
 * features that depend on it.
 * kraft.version 0–1 at 0: a single static voter, as a cluster formatted without --standalone (an upgrade to 1,
 * a dynamic quorum, is refused: there is no quorum to reconfigure).
 * eligible.leader.replicas.version 0–1 at 1: on one broker it changes no election, only min.insync.replicas'
 * config rules (admin/alter-configs.ts), which gregor applies.
 * group.version 0–1 at 1: level 1 serves the KIP-848 consumer group protocol (ConsumerGroupHeartbeat), as in Kafka
 * 4.3.1, where it needs metadata.version 4.0-IV0 (22).
 * share.version 0–1 at 1: level 1 serves share groups (KIP-932: ShareGroupHeartbeat and ShareGroupDescribe so far),
 * as in Kafka 4.3.1, where it needs metadata.version 4.2-IV0 (28).
 * streams.version 0–1 at 1: level 1 serves the KIP-1071 streams group protocol (StreamsGroupHeartbeat), as in Kafka
 * 4.3.1 (`kafka-features describe` on the reference: 0-1 finalized at 1).
 */
export const SUPPORTED_FEATURES: readonly SupportedFeature[] = [
  { name: ELIGIBLE_LEADER_REPLICAS_VERSION, minVersion: 0, maxVersion: 1, defaultLevel: 1, dependencies: { 1: { [METADATA_VERSION]: 23 } } },
  { name: GROUP_VERSION, minVersion: 0, maxVersion: 1, defaultLevel: 1, dependencies: { 1: { [METADATA_VERSION]: 22 } } },
  { name: KRAFT_VERSION, minVersion: 0, maxVersion: 1, defaultLevel: 0 },
  { name: METADATA_VERSION, minVersion: 7, maxVersion: 30, defaultLevel: 30 },
  { name: SHARE_VERSION, minVersion: 0, maxVersion: 1, defaultLevel: 1, dependencies: { 1: { [METADATA_VERSION]: 28 } } },
  { name: STREAMS_VERSION, minVersion: 0, maxVersion: 1, defaultLevel: 1 },
  { name: TRANSACTION_VERSION, minVersion: 0, maxVersion: 2, defaultLevel: 2 },
];

/** metadata.version levels whose step changed the metadata format (Kafka's didMetadataChange): no downgrade across one. */
const METADATA_CHANGED_AT: ReadonlySet<number> = new Set([7, 8, 11, 13, 14, 15, 17, 23, 30]);

export interface FinalizedFeature {
  readonly name: string;
  readonly level: number;
}

/** Kafka's FeatureUpdate.UpgradeType codes. */
export const UpgradeType = { UPGRADE: 1, SAFE_DOWNGRADE: 2, UNSAFE_DOWNGRADE: 3 } as const;

export interface FeatureUpdate {
  readonly name: string;
  readonly level: number;
  /** An UpgradeType code; anything else is refused as Kafka's UNKNOWN type. */
  readonly upgradeType: number;
}

/** Why an update is refused: always INVALID_UPDATE_VERSION, with Kafka's message. */
export class FeatureUpdateError extends KafkaError {
  constructor(message: string) {
    super('INVALID_UPDATE_VERSION', message);
  }
}

export type FeaturesListener = (changed: readonly FinalizedFeature[]) => void;

/** The finalized levels in force, and their epoch (on a KRaft broker, the metadata offset they were read at). */
export class Features {
  readonly #supported: ReadonlyMap<string, SupportedFeature>;
  readonly #levels = new Map<string, number>();
  readonly #listeners = new Set<FeaturesListener>();
  readonly #store: FeatureStore;
  #epoch: bigint;
  /** Saves run one after another, each with the levels as they were when it was asked for. */
  #saving: Promise<void> = Promise.resolve();

  /** `levels`: finalized levels that differ from the defaults. */
  constructor(
    supported: readonly SupportedFeature[] = SUPPORTED_FEATURES,
    levels?: ReadonlyMap<string, number>,
    epoch = 1n,
    store: FeatureStore = memoryFeatureStore(),
  ) {
    this.#supported = new Map(supported.map((f) => [f.name, f]));
    for (const f of supported) this.#levels.set(f.name, levels?.get(f.name) ?? f.defaultLevel);
    this.#epoch = epoch;
    this.#store = store;
  }

  /**
   * The stored levels, or the defaults when nothing was stored. A stored level this broker cannot run at (a
   * newer gregor wrote it) stops start-up with a one-line error, as a Kafka controller refuses to replay it.
   */
  static async open(store: FeatureStore, supported: readonly SupportedFeature[] = SUPPORTED_FEATURES): Promise<Features> {
    const stored = await store.load();
    if (stored !== undefined) {
      for (const [name, level] of stored.levels) {
        const feature = supported.find((f) => f.name === name);
        const inRange = feature === undefined ? level === 0 : level >= feature.minVersion && level <= feature.maxVersion;
        if (!inRange) {
          throw new Error(`${store.description}: ${name} is finalized at level ${level}, which this broker does not support; ` +
            'run the gregor version that wrote it');
        }
      }
    }
    if (stored === undefined) return new Features(supported, undefined, 1n, store);
    // Stored levels name every feature finalized when they were written: one they do not name was not there, so 0
    // (as a Kafka cluster formed before a feature existed has it off until an upgrade).
    const levels = new Map(supported.map((f) => [f.name, stored.levels.get(f.name) ?? 0]));
    return new Features(supported, levels, stored.epoch, store);
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

  /**
   * Kafka's FeatureControlManager.updateFeatures: every update is checked against the levels the whole request
   * would leave; the first refused one refuses them all (FeatureUpdateError). Updates of one name: the last wins.
   * Returns the levels that would change (nothing is applied).
   */
  check(updates: readonly FeatureUpdate[], nodeId: number): FinalizedFeature[] {
    const byName = new Map<string, FeatureUpdate>();
    for (const update of updates) {
      byName.delete(update.name);
      byName.set(update.name, update);
    }
    const proposed = new Map(this.#levels);
    for (const update of byName.values()) proposed.set(update.name, update.level);
    const changes: FinalizedFeature[] = [];
    for (const update of byName.values()) {
      this.#checkOne(update, proposed, nodeId);
      if (update.level !== this.level(update.name)) changes.push({ name: update.name, level: update.level });
    }
    return changes;
  }

  #checkOne({ name, level, upgradeType }: FeatureUpdate, proposed: ReadonlyMap<string, number>, nodeId: number): void {
    const refuse = (reason: string): never => {
      throw new FeatureUpdateError(`Invalid update version ${level} for feature ${name}. ${reason}`);
    };
    if (upgradeType !== UpgradeType.UPGRADE && upgradeType !== UpgradeType.SAFE_DOWNGRADE && upgradeType !== UpgradeType.UNSAFE_DOWNGRADE) {
      refuse('The controller does not support the given upgrade type.');
    }
    const current = this.level(name);
    if (level < 0) refuse('A feature version cannot be less than 0.');
    const feature = this.#supported.get(name);
    if (feature === undefined || feature.maxVersion === 0) refuse(`Local controller ${nodeId} does not support this feature.`);
    if (level < feature!.minVersion || level > feature!.maxVersion) {
      const range = feature!.minVersion === feature!.maxVersion ? `${feature!.minVersion}` : `${feature!.minVersion}-${feature!.maxVersion}`;
      refuse(`Local controller ${nodeId} only supports versions ${range}`);
    }
    if (level < current && upgradeType === UpgradeType.UPGRADE) {
      refuse("Can't downgrade the version of this feature without setting the upgrade type to either safe or unsafe downgrade.");
    }
    if (level > current && upgradeType !== UpgradeType.UPGRADE) refuse("Can't downgrade to a newer version.");
    if (name === METADATA_VERSION) {
      if (level < current && metadataChangedBetween(level, current)) {
        const reason = upgradeType === UpgradeType.UNSAFE_DOWNGRADE
          ? 'Unsafe metadata downgrade is not supported in this version.'
          : 'Refusing to perform the requested downgrade because it might delete metadata information.';
        throw new FeatureUpdateError(`Unsupported metadata.version downgrade from ${current} to ${level}. ${reason}`);
      }
      return;
    }
    if (name === KRAFT_VERSION) {
      if (upgradeType !== UpgradeType.UPGRADE) {
        if (level !== current) refuse("Can't downgrade the version of this feature.");
      } else if (level > current) {
        // Kafka's LeaderState refuses an upgrade the voters cannot take; gregor's one voter has no quorum to reconfigure.
        throw new FeatureUpdateError(`Invalid upgrade of ${KRAFT_VERSION} to ${level} because not all of the voters support it`);
      }
      return;
    }
    const metadataVersion = proposed.get(METADATA_VERSION) ?? 0;
    if (level >= 1 && metadataVersion < 7) refuse(`${name} could not be set to ${level} because it depends on metadata.version=7 (3.3-IV3)`);
    for (const [dependency, needed] of Object.entries(feature!.dependencies?.[level] ?? {})) {
      if ((proposed.get(dependency) ?? 0) < needed) {
        refuse(`${name} could not be set to ${level} because it depends on ${dependency} level ${needed}`);
      }
    }
  }

  /**
   * Apply already-checked levels: they are in force at once, one epoch step for the lot, then the listeners hear
   * of it; the promise resolves once they are durable.
   */
  apply(changes: readonly FinalizedFeature[]): Promise<void> {
    if (changes.length === 0) return this.#saving;
    for (const c of changes) this.#levels.set(c.name, c.level);
    this.#epoch += 1n;
    for (const listener of this.#listeners) listener(changes);
    const snapshot = { epoch: this.#epoch, levels: new Map(this.#levels) };
    this.#saving = this.#saving.catch(() => undefined).then(() => this.#store.save(snapshot));
    return this.#saving;
  }

  onChange(listener: FeaturesListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** Kafka's MetadataVersion.checkIfMetadataChanged for a downgrade from `high` to `low`. */
function metadataChangedBetween(low: number, high: number): boolean {
  for (let level = high; level > low; level--) if (METADATA_CHANGED_AT.has(level)) return true;
  return false;
}
