// SCRAM-SHA-256 / SCRAM-SHA-512 keys (RFC 5802, RFC 7677), computed with node:crypto only, as Kafka's ScramFormatter:
// a stored credential is the salt, the iteration count, StoredKey and ServerKey; never the password.
import { createHash, createHmac, pbkdf2Sync, timingSafeEqual } from 'node:crypto';

export type ScramMechanismName = 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export interface ScramMechanism {
  readonly name: ScramMechanismName;
  /** The int8 Kafka's AlterUserScramCredentials/DescribeUserScramCredentials carry (ScramMechanism.type()). */
  readonly type: number;
  readonly hash: 'sha256' | 'sha512';
  readonly keyLength: number;
  /** Kafka's ScramMechanism.minIterations. */
  readonly minIterations: number;
}

export const SCRAM_MECHANISMS: readonly ScramMechanism[] = [
  { name: 'SCRAM-SHA-256', type: 1, hash: 'sha256', keyLength: 32, minIterations: 4096 },
  { name: 'SCRAM-SHA-512', type: 2, hash: 'sha512', keyLength: 64, minIterations: 4096 },
];

/** Kafka's ScramControlManager.MAX_ITERATIONS. */
export const SCRAM_MAX_ITERATIONS = 16384;

export function scramMechanismByName(name: string): ScramMechanism | undefined {
  return SCRAM_MECHANISMS.find((m) => m.name === name);
}

export function scramMechanismByType(type: number): ScramMechanism | undefined {
  return SCRAM_MECHANISMS.find((m) => m.type === type);
}

export interface ScramCredential {
  readonly salt: Buffer;
  readonly storedKey: Buffer;
  readonly serverKey: Buffer;
  readonly iterations: number;
}

export function hmac(m: ScramMechanism, key: Buffer, text: Buffer | string): Buffer {
  return createHmac(m.hash, key).update(text).digest();
}

/** Hi(password, salt, i) of RFC 5802: PBKDF2 with the mechanism's HMAC. */
export function saltedPassword(m: ScramMechanism, password: string, salt: Buffer, iterations: number): Buffer {
  return pbkdf2Sync(Buffer.from(password, 'utf8'), salt, iterations, m.keyLength, m.hash);
}

/** The stored form of a salted password, as Kafka's controller derives it from an AlterUserScramCredentials upsertion. */
export function credentialFromSaltedPassword(m: ScramMechanism, salt: Buffer, salted: Buffer, iterations: number): ScramCredential {
  const clientKey = hmac(m, salted, 'Client Key');
  return {
    salt: Buffer.from(salt),
    storedKey: createHash(m.hash).update(clientKey).digest(),
    serverKey: hmac(m, salted, 'Server Key'),
    iterations,
  };
}

/** RFC 5802's check of a ClientProof: H(ClientProof XOR ClientSignature) must equal StoredKey. */
export function verifyClientProof(m: ScramMechanism, credential: ScramCredential, authMessage: string, proof: Buffer): boolean {
  const signature = hmac(m, credential.storedKey, authMessage);
  if (proof.length !== signature.length) return false;
  const clientKey = Buffer.alloc(proof.length);
  for (let i = 0; i < proof.length; i++) clientKey[i] = proof[i]! ^ signature[i]!;
  return timingSafeEqual(createHash(m.hash).update(clientKey).digest(), credential.storedKey);
}

/** Kafka's ScramFormatter.username: the saslname of a client-first message with =2C and =3D decoded. */
export function usernameOf(saslName: string): string | undefined {
  if (/=(?!2C|3D)/.test(saslName)) return undefined;
  return saslName.replace(/=2C/g, ',').replace(/=3D/g, '=');
}
