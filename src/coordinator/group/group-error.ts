/** A Kafka error code thrown by a validation step and turned back into that code in the response. */

export class GroupError extends Error {
  constructor(readonly code: number, message?: string) {
    super(message ?? `group error ${code}`);
  }

  /** The code of a GroupError; anything else is a bug and is rethrown. */
  static codeOf(error: unknown): number {
    if (error instanceof GroupError) return error.code;
    throw error;
  }
}

