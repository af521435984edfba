/** The one error type a decoder throws: what went wrong, in one line. */
export class ProtocolError extends Error {
  constructor(readonly kind: 'truncated' | 'invalid' | 'too-large' | 'unsupported-version', message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}
