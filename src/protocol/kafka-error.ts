/**
 * The one error base for every layer, and the one mapper from an exception to what a client is told (Kafka's
 * ApiException with its Errors, Errors.forException and ApiError.fromThrowable). An error that means a Kafka code
 * extends KafkaError and names its code; anything else is UNKNOWN_SERVER_ERROR without its message (Kafka does not
 * leak internals).
 */
import type { ApiError } from './api-error.js';
import { ErrorCode, errorInfo, isKnownErrorCode, type ErrorName } from './error-codes.js';

export class KafkaError extends Error {
  /** The code's number, as the wire carries it. */
  readonly errorCode: number;

  /** `code` by name (ErrorCode's key); the message defaults to Kafka's for that code. */
  constructor(readonly code: ErrorName, message?: string) {
    super(message ?? errorInfo(ErrorCode[code]).message);
    this.name = new.target.name;
    this.errorCode = ErrorCode[code];
  }

  /** The error for a code known only as a number at run time (an append's result); unknown numbers stay generic. */
  static fromCode(errorCode: number, message?: string): KafkaError {
    return new KafkaError(isKnownErrorCode(errorCode) ? (errorInfo(errorCode).name as ErrorName) : 'UNKNOWN_SERVER_ERROR', message);
  }

  /** Whether a client may retry (Kafka's RetriableException), from error-codes. */
  get retriable(): boolean {
    return errorInfo(this.errorCode).retriable;
  }
}

/** Kafka's Errors.forException. */
export function errorCodeOf(error: unknown): number {
  return error instanceof KafkaError ? error.errorCode : ErrorCode.UNKNOWN_SERVER_ERROR;
}

/** Kafka's ApiError.fromThrowable: the code, and the error's message unless it is generic or internal. */
export function apiErrorOf(error: unknown): ApiError {
  const code = errorCodeOf(error);
  const message = error instanceof Error ? error.message : null;
  return { code, message: code === ErrorCode.UNKNOWN_SERVER_ERROR || message === errorInfo(code).message ? null : message };
}
