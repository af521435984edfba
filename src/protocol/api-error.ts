/** An error code with an optional message, as Kafka's ApiError carries it into per-resource results. */
import { errorInfo } from './error-codes.js';

export interface ApiError {
  readonly code: number;
  readonly message: string | null;
}

/** An error with Kafka's default message for its code (`new ApiError(Errors)` in Kafka). */
export function defaultApiError(code: number): ApiError {
  return { code, message: errorInfo(code).message };
}
