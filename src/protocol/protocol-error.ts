// The one error type a protocol decoder (or encoder) throws. The server maps `kind` to a Kafka
// error code or closes the connection; any other exception escaping a codec is a bug.
export type ProtocolErrorKind = 'truncated' | 'invalid' | 'too-large' | 'unsupported-version';

export class ProtocolError extends Error {
  constructor(
    readonly kind: ProtocolErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

// Kafka's generated writers throw UnsupportedVersionException with this wording when a field that
// the target version lacks holds a non-default value and is not marked ignorable.
export function nonDefaultFieldError(field: string, version: number): ProtocolError {
  return new ProtocolError('unsupported-version', `Attempted to write a non-default ${field} at version ${version}`);
}

export function nullFieldError(field: string, version: number): ProtocolError {
  return new ProtocolError('invalid', `non-nullable field ${field} is null at version ${version}`);
}

export function versionError(message: string, version: number, min: number, max: number): ProtocolError {
  return new ProtocolError('unsupported-version', `${message} version ${version} is outside ${min}-${max}`);
}
