// The first value a new kafkajs consumer group reads from a topic's beginning: what the client e2e tests compare.
import type { Kafka } from 'kafkajs';

export async function firstValue(kafka: Kafka, topic: string): Promise<string> {
  const consumer = kafka.consumer({ groupId: `g-${topic}` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const value = await new Promise<string>((resolve) => void consumer.run({ eachMessage: async ({ message }) => resolve(message.value!.toString()) }));
  await consumer.disconnect();
  return value;
}
