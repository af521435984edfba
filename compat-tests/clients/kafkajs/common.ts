// kafkajs helpers shared by its scenario files: clients, topics, producing, reading back, Kafka error names.
import kafkajsPackage, { type Admin, type Consumer, type ConsumerConfig, type KafkaMessage, type Message } from 'kafkajs';
import { eventually } from '../../runner/eventually.js';
import type { ScenarioContext } from '../../runner/types.js';
import { kafkajsSecurity } from './security.js';

// kafkajs is CommonJS; node finds only some of its named exports, so take them from the default export.
export const { CompressionTypes, ConfigResourceTypes, Kafka, logLevel } = kafkajsPackage;
export type KafkaClient = InstanceType<typeof Kafka>;

process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

export function kafkaFor(context: ScenarioContext, retries = 5): KafkaClient {
  return new Kafka({
    clientId: 'gregor-compat-kafkajs',
    brokers: [context.target.bootstrap],
    logLevel: logLevel.NOTHING,
    retry: { retries, initialRetryTime: 100, maxRetryTime: 1000 },
    ...kafkajsSecurity(),
  });
}

export async function withAdmin<T>(context: ScenarioContext, work: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafkaFor(context).admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

export async function createTopic(context: ScenarioContext, topic: string, numPartitions: number): Promise<void> {
  await withAdmin(context, (admin) => admin.createTopics({ topics: [{ topic, numPartitions }], waitForLeaders: true }));
}

export async function produce(context: ScenarioContext, topic: string, messages: Message[]): Promise<void> {
  const producer = kafkaFor(context).producer();
  await producer.connect();
  try {
    await producer.send({ topic, messages });
  } finally {
    await producer.disconnect();
  }
}

/** "m0".."m<n-1>" as values, one partition unless the message says otherwise. */
export function numbered(count: number, from = 0): Message[] {
  return Array.from({ length: count }, (_, i) => ({ value: `m${from + i}` }));
}

export interface Seen {
  partition: number;
  offset: number;
  value: string | null;
}

export function seen(partition: number, message: KafkaMessage): Seen {
  return { partition, offset: Number(message.offset), value: message.value === null ? null : message.value.toString() };
}

/**
 * Runs a consumer of `topic` until `done(received)` holds, then disconnects it (a clean LeaveGroup).
 * `onMessage` runs for each message before it is added (e.g. to commit or seek).
 */
export async function consumeUntil(
  context: ScenarioContext,
  config: ConsumerConfig,
  topic: string,
  done: (received: Seen[]) => boolean,
  options: { fromBeginning?: boolean; autoCommit?: boolean; onMessage?: (consumer: Consumer, message: Seen) => Promise<void> | void } = {},
): Promise<Seen[]> {
  const consumer = kafkaFor(context).consumer({ maxWaitTimeInMs: 500, ...config });
  await consumer.connect();
  const received: Seen[] = [];
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: options.fromBeginning ?? true });
    await consumer.run({
      autoCommit: options.autoCommit ?? true,
      eachMessage: async ({ partition, message }) => {
        const one = seen(partition, message);
        await options.onMessage?.(consumer, one);
        received.push(one);
      },
    });
    await eventually(`messages (have ${received.length})`, async () => (done(received) ? true : undefined), 60_000);
  } finally {
    await consumer.disconnect();
  }
  return received;
}

/** Offsets per partition as "p:o" in the order received. */
export function positions(received: readonly Seen[]): string[] {
  return received.map((r) => `${r.partition}:${r.offset}`);
}

/** The Kafka error name (e.g. UNKNOWN_TOPIC_OR_PARTITION) behind a kafkajs error, looking through its wrappers. */
export function kafkaErrorName(error: unknown): string {
  const seenErrors = new Set<unknown>();
  const visit = (value: unknown): string | undefined => {
    if (typeof value !== 'object' || value === null || seenErrors.has(value)) return undefined;
    seenErrors.add(value);
    const candidate = value as { type?: unknown; cause?: unknown; originalError?: unknown; errors?: unknown };
    if (typeof candidate.type === 'string') return candidate.type;
    const inner = [candidate.cause, candidate.originalError, ...(Array.isArray(candidate.errors) ? candidate.errors : [])];
    for (const next of inner) {
      const found = visit(next);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return visit(error) ?? `not a Kafka error: ${error instanceof Error ? error.message : String(error)}`;
}

/** Runs work, which must fail, and returns the Kafka error name it failed with. */
export async function failsWith(what: string, work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    return kafkaErrorName(error);
  }
  throw new Error(`${what} succeeded; Kafka refuses it`);
}
