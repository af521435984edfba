/**
 * The server-side assignors by name (`group.consumer.assignors`, a member's ServerAssignor): the one place that
 * names them. Kafka 4.3.1's two, uniform and range, computed exactly as Kafka computes them; its default list
 * (uniform, range) makes uniform a group's default.
 */
import { KafkaError } from '../../../protocol/kafka-error.js';
import type { ConsumerGroupAssignor } from './assignor.js';
import { rangeAssignor } from './range-assignor.js';
import { uniformAssignor } from './uniform-assignor.js';

const ASSIGNORS: readonly ConsumerGroupAssignor[] = [uniformAssignor, rangeAssignor];

/** The assignors of `group.consumer.assignors`, in its order; an unknown name is a configuration error. */
export function consumerGroupAssignors(names: readonly string[]): Map<string, ConsumerGroupAssignor> {
  const result = new Map<string, ConsumerGroupAssignor>();
  for (const name of names) {
    const assignor = ASSIGNORS.find((a) => a.name === name);
    if (assignor === undefined) throw new KafkaError('INVALID_CONFIG', `group.consumer.assignors: unknown assignor ${name}`);
    result.set(name, assignor);
  }
  return result;
}
