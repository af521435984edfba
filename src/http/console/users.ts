/**
 * SCRAM users for the console, through the broker's own APIs as kafka-configs --entity-type users uses them:
 * DescribeUserScramCredentials (mechanisms and iterations; a credential's keys are never answered) and
 * AlterUserScramCredentials. As the admin client does, the password is salted here (a random salt, the mechanism's
 * Hi()) and only the salt and salted password are sent: the password itself goes nowhere, the answer never holds it.
 */
import { randomBytes } from 'node:crypto';
import { describeUserScramCredentialsApi, createDescribeUserScramCredentialsRequest } from '../../protocol/generated/describe-user-scram-credentials.js';
import { alterUserScramCredentialsApi, createAlterUserScramCredentialsRequest } from '../../protocol/generated/alter-user-scram-credentials.js';
import { saltedPassword, scramMechanismByName, scramMechanismByType, SCRAM_MECHANISMS } from '../../security/sasl/scram-formatter.js';
import { BadRequest } from './api-input.js';
import { checkError, type KafkaCalls } from './kafka-calls.js';

export interface ShownUser {
  readonly user: string;
  readonly credentials: readonly { readonly mechanism: string; readonly iterations: number }[];
}

export async function listUsers(kafka: KafkaCalls): Promise<ShownUser[]> {
  const response = await kafka.call(describeUserScramCredentialsApi, 0, { ...createDescribeUserScramCredentialsRequest(), users: null });
  checkError(response.errorCode, response.errorMessage);
  return response.results.map((r) => {
    checkError(r.errorCode, r.errorMessage);
    return {
      user: r.user,
      credentials: r.credentialInfos.map((c) => ({ mechanism: scramMechanismByType(c.mechanism)?.name ?? 'UNKNOWN', iterations: c.iterations }))
        .sort((a, b) => a.mechanism.localeCompare(b.mechanism)),
    };
  }).sort((a, b) => a.user.localeCompare(b.user));
}

function mechanismOf(name: unknown) {
  const mechanism = typeof name === 'string' ? scramMechanismByName(name) : undefined;
  if (mechanism === undefined) throw new BadRequest(`mechanism must be one of ${SCRAM_MECHANISMS.map((m) => m.name).join(', ')}`);
  return mechanism;
}

/** A salt as Kafka's ScramFormatter makes one: a random 130-bit number written in base 36, as bytes. */
function randomSalt(): Buffer {
  const bits = BigInt(`0x${randomBytes(17).toString('hex')}`) & ((1n << 130n) - 1n);
  return Buffer.from(bits.toString(36), 'utf8');
}

/** Adds or replaces the user's credential for one mechanism (kafka-configs --add-config 'SCRAM-SHA-256=[iterations=N,password=P]'). */
export async function upsertUser(kafka: KafkaCalls, user: string, mechanismName: unknown, iterations: number, password: string): Promise<void> {
  const mechanism = mechanismOf(mechanismName);
  const salt = randomSalt();
  const response = await kafka.call(alterUserScramCredentialsApi, 0, {
    ...createAlterUserScramCredentialsRequest(),
    upsertions: [{ name: user, mechanism: mechanism.type, iterations, salt, saltedPassword: saltedPassword(mechanism, password, salt, iterations) }],
  });
  for (const r of response.results) checkError(r.errorCode, r.errorMessage);
}

/** Deletes the user's credential for one mechanism (kafka-configs --delete-config SCRAM-SHA-256). */
export async function deleteUserCredential(kafka: KafkaCalls, user: string, mechanismName: unknown): Promise<void> {
  const mechanism = mechanismOf(mechanismName);
  const response = await kafka.call(alterUserScramCredentialsApi, 0, {
    ...createAlterUserScramCredentialsRequest(), deletions: [{ name: user, mechanism: mechanism.type }],
  });
  for (const r of response.results) checkError(r.errorCode, r.errorMessage);
}
