/** A Kafka error code thrown by a validation step and turned back into that code in the response. */
import { KafkaError } from '../../protocol/kafka-error.js';

export class GroupError extends KafkaError {
  /** The code of a GroupError; anything else is a bug and is rethrown. */
  static codeOf(error: unknown): number {
    if (error instanceof GroupError) return error.errorCode;
    throw error;
  }
}
