// Kafka 4.3.1's group configs (GroupConfig: ConfigResource type GROUP), each with its type, Kafka's default, the
// validator of its own ConfigDef, and the broker config it defaults to (Kafka's extractGroupConfigMap and the
// synonym DescribeConfigs lists). A group's effective config is the broker's values overlaid with the group's
// overrides, each held within the broker's min/max bounds for it (Kafka's GroupConfig.fromProps clamps a value
// stored before the bounds moved, with a warning). None of these apply to classic groups in Kafka 4.3.1: they
// configure consumer-protocol (KIP-848), share and streams groups.
import type { BrokerConfig } from './broker-config.js';
import { brokerConfigDefinition } from './broker-configs.js';
import { parseConfigValue, type ConfigDefinition } from './config-types.js';
import { atLeast, bool, custom, int, named, oneOf, string, type UnnamedDefinition } from './define.js';

/** An ISO-8601 duration as Java's Duration.parse reads it, not negative (by_duration:PnDTnHnMn.nS). */
const ISO_DURATION = /^\+?P(?:\+?\d+D)?(?:T(?:\+?\d+H)?(?:\+?\d+M)?(?:\+?\d+(?:[.,]\d{0,9})?S)?)?$/i;

function isDuration(text: string): boolean {
  return ISO_DURATION.test(text) && !/^\+?P$/i.test(text) && !/T$/i.test(text);
}

/** Kafka's ShareGroupAutoOffsetResetStrategy validator; its problem is Kafka's whole message. */
const autoOffsetReset = custom<string>('', (value) => {
  if (value === 'earliest' || value === 'latest') return null;
  if (value.startsWith('by_duration:') && isDuration(value.slice('by_duration:'.length))) return null;
  return `Invalid value ${value} for configuration share.auto.offset.reset: Invalid value \`${value}\` for configuration ` +
    "share.auto.offset.reset. The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'.";
});

type GroupSpec<T> = UnnamedDefinition<T> & {
  /** The broker config this key takes its value from when the group does not set it (null: its own default). */
  readonly brokerSynonym: string | null;
  /** The broker configs bounding it, checked when set and applied when read. */
  readonly min: string | null;
  readonly max: string | null;
};

const from = <T>(def: UnnamedDefinition<T>, brokerSynonym: string | null, min: string | null = null, max: string | null = null): GroupSpec<T> =>
  ({ ...def, updateMode: 'cluster-wide', brokerSynonym, min, max });

/** Kafka's definition order (which its validators follow). */
export const groupConfigDefinitions = named({
  'consumer.session.timeout.ms': from(int({ default: 45000, valid: atLeast(1), doc: 'Session timeout of this consumer-protocol group\'s members.' }),
    'group.consumer.session.timeout.ms', 'group.consumer.min.session.timeout.ms', 'group.consumer.max.session.timeout.ms'),
  'consumer.heartbeat.interval.ms': from(int({ default: 5000, valid: atLeast(1), doc: 'Heartbeat interval told to this consumer-protocol group\'s members.' }),
    'group.consumer.heartbeat.interval.ms', 'group.consumer.min.heartbeat.interval.ms', 'group.consumer.max.heartbeat.interval.ms'),
  'consumer.assignment.interval.ms': from(int({ default: 1000, valid: atLeast(0), doc: 'Least time between two target assignments of this consumer-protocol group.' }),
    'group.consumer.assignment.interval.ms', 'group.consumer.min.assignment.interval.ms', 'group.consumer.max.assignment.interval.ms'),
  'share.session.timeout.ms': from(int({ default: 45000, valid: atLeast(1), doc: 'Session timeout of this share group\'s members.' }),
    'group.share.session.timeout.ms', 'group.share.min.session.timeout.ms', 'group.share.max.session.timeout.ms'),
  'share.heartbeat.interval.ms': from(int({ default: 5000, valid: atLeast(1), doc: 'Heartbeat interval told to this share group\'s members.' }),
    'group.share.heartbeat.interval.ms', 'group.share.min.heartbeat.interval.ms', 'group.share.max.heartbeat.interval.ms'),
  'share.record.lock.duration.ms': from(int({ default: 30000, valid: atLeast(1000), doc: 'How long a record handed to a member of this share group stays locked.' }),
    'group.share.record.lock.duration.ms', 'group.share.min.record.lock.duration.ms', 'group.share.max.record.lock.duration.ms'),
  'share.delivery.count.limit': from(int({ default: 5, valid: atLeast(2), doc: 'Deliveries of one record in this share group before it is given up on.' }),
    'group.share.delivery.count.limit', 'group.share.min.delivery.count.limit', 'group.share.max.delivery.count.limit'),
  'share.partition.max.record.locks': from(int({ default: 2000, valid: atLeast(100), doc: 'Most records of one partition locked for this share group at once.' }),
    'group.share.partition.max.record.locks', 'group.share.min.partition.max.record.locks', 'group.share.max.partition.max.record.locks'),
  'share.auto.offset.reset': from(string({ default: 'latest', valid: autoOffsetReset, doc: 'Where this share group starts reading a partition: earliest, latest, or by_duration:<ISO-8601 duration> back from now.' }), null),
  'share.isolation.level': from(string({ default: 'read_uncommitted', valid: oneOf('read_committed', 'read_uncommitted'), doc: 'Whether this share group is delivered only committed transactional records (read_committed) or all of them.' }), null),
  'share.renew.acknowledge.enable': from(bool({ default: true, doc: 'Whether members of this share group may renew a record\'s lock when acknowledging.' }), null),
  'share.assignment.interval.ms': from(int({ default: 1000, valid: atLeast(0), doc: 'Least time between two target assignments of this share group.' }),
    'group.share.assignment.interval.ms', 'group.share.min.assignment.interval.ms', 'group.share.max.assignment.interval.ms'),
  'streams.session.timeout.ms': from(int({ default: 45000, valid: atLeast(1), doc: 'Session timeout of this streams group\'s members.' }),
    'group.streams.session.timeout.ms', 'group.streams.min.session.timeout.ms', 'group.streams.max.session.timeout.ms'),
  'streams.heartbeat.interval.ms': from(int({ default: 5000, valid: atLeast(1), doc: 'Heartbeat interval told to this streams group\'s members.' }),
    'group.streams.heartbeat.interval.ms', 'group.streams.min.heartbeat.interval.ms', 'group.streams.max.heartbeat.interval.ms'),
  'streams.num.standby.replicas': from(int({ default: 0, valid: atLeast(0), doc: 'Standby replicas per task in this streams group.' }),
    'group.streams.num.standby.replicas', null, 'group.streams.max.standby.replicas'),
  'streams.initial.rebalance.delay.ms': from(int({ default: 3000, valid: atLeast(0), doc: 'How long this streams group waits for more members before its first assignment.' }),
    'group.streams.initial.rebalance.delay.ms'),
  'streams.assignment.interval.ms': from(int({ default: 1000, valid: atLeast(0), doc: 'Least time between two target assignments of this streams group.' }),
    'group.streams.assignment.interval.ms', 'group.streams.min.assignment.interval.ms', 'group.streams.max.assignment.interval.ms'),
});

export type GroupConfigKey = keyof typeof groupConfigDefinitions;
export type GroupConfigDefinition = ConfigDefinition & GroupSpec<unknown>;

/** A group's effective configs by Kafka name. */
export type GroupConfigValues = { readonly [K in GroupConfigKey]: (typeof groupConfigDefinitions)[K]['default'] };

/** What the group coordinators read: one group's effective configs. */
export type GroupConfigLookup = (groupId: string) => GroupConfigValues;

/**
 * The order DescribeConfigs lists a group's configs in: Kafka 4.3.1 answers in its HashMap's iteration
 * order, the same for every group (the key set never changes).
 */
export const GROUP_CONFIG_DESCRIBE_ORDER: readonly GroupConfigKey[] = [
  'consumer.session.timeout.ms', 'consumer.assignment.interval.ms', 'share.auto.offset.reset', 'share.renew.acknowledge.enable',
  'streams.initial.rebalance.delay.ms', 'share.session.timeout.ms', 'streams.assignment.interval.ms', 'share.heartbeat.interval.ms',
  'streams.heartbeat.interval.ms', 'share.delivery.count.limit', 'consumer.heartbeat.interval.ms', 'share.record.lock.duration.ms',
  'share.assignment.interval.ms', 'share.isolation.level', 'streams.session.timeout.ms', 'share.partition.max.record.locks',
  'streams.num.standby.replicas',
];

export function groupConfigDefinition(name: string): GroupConfigDefinition | undefined {
  return Object.hasOwn(groupConfigDefinitions, name) ? groupConfigDefinitions[name as GroupConfigKey] as GroupConfigDefinition : undefined;
}

function brokerValue(broker: BrokerConfig, key: string): unknown {
  return (broker as unknown as Record<string, unknown>)[key] ?? brokerConfigDefinition(key)?.default;
}

/** Kafka's extractGroupConfigMap: every group config's value when the group sets none. */
export function groupConfigDefaults(broker: BrokerConfig): Record<GroupConfigKey, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(groupConfigDefinitions)) {
    out[name] = def.brokerSynonym === null ? def.default : brokerValue(broker, def.brokerSynonym);
  }
  return out as Record<GroupConfigKey, unknown>;
}

/** Pairs Kafka checks across keys: a session timeout must exceed its heartbeat interval. */
const SESSION_OVER_HEARTBEAT: readonly (readonly [GroupConfigKey, GroupConfigKey])[] = [
  ['consumer.session.timeout.ms', 'consumer.heartbeat.interval.ms'],
  ['share.session.timeout.ms', 'share.heartbeat.interval.ms'],
  ['streams.session.timeout.ms', 'streams.heartbeat.interval.ms'],
];

/** The order Kafka's GroupConfig.validateValues checks the bounds in. */
const BOUNDS_ORDER: readonly GroupConfigKey[] = [
  'consumer.heartbeat.interval.ms', 'consumer.session.timeout.ms', 'consumer.assignment.interval.ms',
  'share.heartbeat.interval.ms', 'share.session.timeout.ms', 'share.record.lock.duration.ms', 'share.delivery.count.limit',
  'share.partition.max.record.locks', 'share.assignment.interval.ms', 'streams.heartbeat.interval.ms', 'streams.session.timeout.ms',
  'streams.num.standby.replicas', 'streams.assignment.interval.ms',
];

/**
 * Kafka's GroupConfig.validateValues over typed values (the broker's overlaid with the group's): each key within
 * the broker's bounds, then every session timeout above its heartbeat interval. Kafka's message, or null.
 */
export function groupConfigBoundsProblem(values: Readonly<Record<GroupConfigKey, unknown>>, broker: BrokerConfig): string | null {
  for (const name of BOUNDS_ORDER) {
    const def = groupConfigDefinitions[name] as GroupConfigDefinition;
    const value = values[name] as number;
    if (def.min !== null && value < (brokerValue(broker, def.min) as number)) return `${name} must be greater than or equal to ${def.min}`;
    if (def.max !== null && value > (brokerValue(broker, def.max) as number)) return `${name} must be less than or equal to ${def.max}`;
  }
  for (const [session, heartbeat] of SESSION_OVER_HEARTBEAT) {
    if ((values[session] as number) <= (values[heartbeat] as number)) return `${session} must be greater than ${heartbeat}`;
  }
  return null;
}

/**
 * A group's effective configs: the broker's values overlaid with the group's stored overrides (raw text, checked
 * when they were set), each held within the broker's current bounds as Kafka's GroupConfig.fromProps does
 * (`warn` hears Kafka's line when a value is clamped). An override that no longer parses is left out.
 */
export function resolveGroupConfig(
  groupId: string,
  overrides: ReadonlyMap<string, string>,
  broker: BrokerConfig,
  warn: (message: string) => void = () => undefined,
): GroupConfigValues {
  const values: Record<string, unknown> = groupConfigDefaults(broker);
  for (const [name, raw] of overrides) {
    const def = groupConfigDefinition(name);
    if (def === undefined) continue;
    let value: unknown;
    try {
      value = parseConfigValue(def, raw);
    } catch {
      continue;
    }
    if (def.min !== null && (value as number) < (brokerValue(broker, def.min) as number)) {
      const min = brokerValue(broker, def.min);
      warn(`The group config '${name}' for group '${groupId}' has value ${String(value)} which is below the broker's allowed minimum ${String(min)}. ` +
        `The effective value will be capped to ${String(min)}.`);
      value = min;
    } else if (def.max !== null && (value as number) > (brokerValue(broker, def.max) as number)) {
      const max = brokerValue(broker, def.max);
      warn(`The group config '${name}' for group '${groupId}' has value ${String(value)} which exceeds the broker's allowed maximum ${String(max)}. ` +
        `The effective value will be capped to ${String(max)}.`);
      value = max;
    }
    values[name] = value;
  }
  return values as GroupConfigValues;
}
