// Helpers for the kafkajs consumer-group end-to-end tests: a consumer that reports its assignments,
// waiting for a condition without timed assertions (the test's own timeout bounds the wait).
import { Kafka, logLevel, type Consumer, type ConsumerConfig } from 'kafkajs';

process.env['KAFKAJS_NO_PARTITIONER_WARNING'] = '1';

export function kafkaFor(port: number, clientId = 'e2e'): Kafka {
  return new Kafka({ clientId, brokers: [`127.0.0.1:${port}`], logLevel: logLevel.NOTHING, retry: { retries: 30, initialRetryTime: 100, maxRetryTime: 1000 } });
}

/** A consumer of one topic that records its latest assignment and every message it processed. */
export class TrackedConsumer {
  readonly consumer: Consumer;
  assignment: number[] = [];
  generation = -1;
  readonly seen: string[] = [];

  constructor(kafka: Kafka, config: ConsumerConfig) {
    this.consumer = kafka.consumer(config);
    this.consumer.on(this.consumer.events.GROUP_JOIN, (event) => {
      const payload = event.payload as { memberAssignment: Record<string, number[]>; generationId?: number };
      this.assignment = Object.values(payload.memberAssignment).flat().sort((a, b) => a - b);
    });
  }

  async start(topic: string): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topic, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        this.seen.push(message.value!.toString());
      },
    });
  }
}

/** Resolves once `condition` holds, checking every 50 ms. */
export async function until(condition: () => boolean | Promise<boolean>, what: string, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The partitions 0..n-1 covered exactly once by these assignments. */
export function coversExactly(assignments: readonly (readonly number[])[], n: number): boolean {
  const all = assignments.flat().sort((a, b) => a - b);
  return all.length === n && all.every((p, i) => p === i);
}
