// Kafka's Uuid in its text form (URL-safe base64 of the 16 bytes, no padding, 22 chars), as
// Uuid.toString() prints it: topic ids, cluster ids, directory ids.
import { cryptoModule } from '../lazy-modules.js';

export const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA';

/** A random id; like Kafka's Uuid.randomUuid it never returns the zero id or one whose text starts with '-'. */
export function randomUuid(): string {
  for (;;) {
    const bytes = cryptoModule().randomBytes(16);
    // Kafka generates version-4 UUIDs.
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const text = bytes.toString('base64url');
    if (text !== ZERO_UUID && !text.startsWith('-')) return text;
  }
}

export function isUuid(text: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(text) && Buffer.from(text, 'base64url').length === 16;
}
