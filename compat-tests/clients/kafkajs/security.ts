// kafkajs over a security run's settings (compat-tests/security/settings.ts: COMPAT_* variables): its ssl and
// sasl options; and auth-failure, a login the broker must refuse.
import { readFileSync } from 'node:fs';
import type { KafkaConfig } from 'kafkajs';
import type { Scenario } from '../../runner/types.js';
import { pass } from '../../runner/types.js';
import { Kafka, logLevel } from './common.js';

/** The ssl/sasl part of a kafkajs config, from the environment; nothing outside a security run. */
export function kafkajsSecurity(env: NodeJS.ProcessEnv = process.env): Pick<KafkaConfig, 'ssl' | 'sasl'> {
  if (env['COMPAT_SECURITY_PROTOCOL'] === undefined) return {};
  const ssl = {
    ca: [readFileSync(env['COMPAT_SSL_CA']!)],
    ...(env['COMPAT_SSL_CERT'] === undefined ? {} : { cert: readFileSync(env['COMPAT_SSL_CERT']), key: readFileSync(env['COMPAT_SSL_KEY']!) }),
  };
  if (env['COMPAT_SASL_MECHANISM'] === undefined) return { ssl };
  const mechanism = env['COMPAT_SASL_MECHANISM'].toLowerCase() as 'scram-sha-512';
  return { ssl, sasl: { mechanism, username: env['COMPAT_SASL_USERNAME']!, password: env['COMPAT_SASL_PASSWORD']! } };
}

/** A message without run-specific parts (addresses). */
export function normalized(message: string): string {
  return message.replace(/127\.0\.0\.1:\d+|localhost:\d+/g, '<broker>');
}

/** Lists topics with settings the broker refuses; observes the error kafkajs gives. */
export const authFailure: Scenario = async (context) => {
  const admin = new Kafka({
    clientId: 'gregor-compat-kafkajs', brokers: [context.target.bootstrap], logLevel: logLevel.NOTHING,
    retry: { retries: 0 }, connectionTimeout: 10_000, ...kafkajsSecurity(),
  }).admin();
  try {
    await admin.connect();
    await admin.listTopics();
  } catch (error) {
    // kafkajs wraps the connection's failure (KafkaJSNumberOfRetriesExceeded → KafkaJSConnectionError → node's).
    const chain: (Error & { code?: string })[] = [];
    for (let at: unknown = error; at instanceof Error && chain.length < 5; at = (at as { cause?: unknown; originalError?: unknown }).cause ?? (at as { originalError?: unknown }).originalError) {
      chain.push(at);
    }
    context.observe('errors', chain.map((e) => e.code === undefined ? e.name : `${e.name} ${e.code}`));
    // TLS failures are named by node's code (the message holds OpenSSL's addresses); SASL ones by the broker's text.
    const last = chain.at(-1)!;
    if (last.code === undefined) context.observe('message', normalized(last.message));
    return pass;
  } finally {
    await admin.disconnect();
  }
  throw new Error('the broker accepted the login; Kafka refuses it');
};
