// The broker the security variants run against (--security): gregor or the reference Kafka, each started with a
// PLAINTEXT listener (set-up: the SCRAM user), a SASL_SSL listener (SCRAM-SHA-512) and an SSL listener that requires
// a client certificate, all from one test CA (test/security/tls/test-ca.ts, made with openssl); and the variants
// and failure cells that run over them, each as the environment its clients get (settings.ts).
import { execFileSync } from 'node:child_process';
import { Kafka, logLevel } from 'kafkajs';
import { makeTestCa, STORE_PASSWORD, type TestCa } from '../../test/security/tls/test-ca.js';
import { tool } from '../lib/tools.js';
import { freePort } from '../lib/ports.js';
import { eventually } from '../runner/eventually.js';
import { startGregorTarget, startReferenceTarget } from '../runner/targets.js';
import type { Target } from '../runner/types.js';
import { securityEnv, type ClientSecurity } from './settings.js';

export const SCRAM_USER = 'compat-alice';
const SCRAM_PASSWORD = 'compat-alice-secret';
const MECHANISM = 'SCRAM-SHA-512';

export type VariantName = 'sasl_ssl' | 'ssl';

/** A way to connect: the listener's bootstrap and what the clients are given. */
export interface Variant {
  readonly name: VariantName;
  readonly bootstrap: string;
  readonly env: Record<string, string>;
}

/** A connection that must be refused, with the settings that make it so. */
export interface FailureCell {
  /** Matrix row, e.g. "sasl_ssl:wrong-password". */
  readonly label: string;
  readonly variant: Variant;
}

export interface SecureTarget {
  /** The PLAINTEXT side (restart, stop). */
  readonly target: Target;
  readonly variants: readonly Variant[];
  readonly failures: readonly FailureCell[];
  stop(): Promise<void>;
}

/** The server-side settings both brokers take (Kafka's keys; gregor reads the same ones). */
function serverSettings(ca: TestCa): Record<string, string> {
  return {
    'sasl.enabled.mechanisms': MECHANISM,
    // Kafka's SCRAM server needs its login module named; gregor takes the same key.
    [`listener.name.sasl_ssl.${MECHANISM.toLowerCase()}.sasl.jaas.config`]: 'org.apache.kafka.common.security.scram.ScramLoginModule required;',
    'ssl.keystore.type': 'PKCS12',
    'ssl.keystore.location': ca.serverP12,
    'ssl.keystore.password': STORE_PASSWORD,
    'ssl.truststore.type': 'PEM',
    'ssl.truststore.location': ca.caCert,
    'listener.name.ssl.ssl.client.auth': 'required',
  };
}

/** The other CA's client as a PKCS12 store, for the Java client (test-ca.ts makes its PEM files only). */
function otherClientP12(ca: TestCa): string {
  const out = `${ca.dir}/other-client.p12`;
  execFileSync('openssl', ['pkcs12', '-export', '-in', ca.otherClientCert, '-inkey', ca.otherClientKey, '-name', 'other-client',
    '-passout', `pass:${STORE_PASSWORD}`, '-out', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  return out;
}

/** Creates the SCRAM user through the PLAINTEXT listener and waits until it can log in over SASL_SSL. */
async function addScramUser(plaintext: string, saslSsl: string, ca: TestCa): Promise<void> {
  await tool('kafka-configs', ['--bootstrap-server', plaintext, '--alter', '--entity-type', 'users', '--entity-name', SCRAM_USER,
    '--add-config', `${MECHANISM}=[iterations=8192,password=${SCRAM_PASSWORD}]`]);
  await eventually('the SCRAM user logs in', async () => {
    const admin = new Kafka({
      brokers: [saslSsl], ssl: { ca: [ca.read(ca.caCert)] }, logLevel: logLevel.NOTHING, retry: { retries: 0 },
      sasl: { mechanism: 'scram-sha-512', username: SCRAM_USER, password: SCRAM_PASSWORD },
    }).admin();
    try {
      await admin.connect();
      await admin.listTopics();
      return true;
    } catch {
      return undefined;
    } finally {
      await admin.disconnect();
    }
  }, 30_000);
}

export async function startSecureTarget(kind: 'gregor' | 'reference'): Promise<SecureTarget> {
  const ca = makeTestCa();
  const [saslPort, sslPort] = [await freePort(), await freePort()];
  const listeners = [`SASL_SSL://127.0.0.1:${saslPort}`, `SSL://127.0.0.1:${sslPort}`];
  const settings = serverSettings(ca);
  let target: Target;
  try {
    target = kind === 'gregor'
      ? await startGregorTarget({ listeners, settings })
      : await startReferenceTarget(async (port) => ({
        ...settings,
        listeners: [`PLAINTEXT://127.0.0.1:${port}`, `CONTROLLER://127.0.0.1:${port + 1}`, ...listeners].join(','),
        'advertised.listeners': [`PLAINTEXT://127.0.0.1:${port}`, ...listeners].join(','),
        'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL',
      }));
  } catch (error) {
    ca.remove();
    throw error;
  }
  const saslSsl = `127.0.0.1:${saslPort}`;
  const ssl = `127.0.0.1:${sslPort}`;
  try {
    await addScramUser(target.bootstrap, saslSsl, ca);
  } catch (error) {
    await target.stop();
    ca.remove();
    throw error;
  }
  const client = { pem: ca.clientCert, key: ca.clientKey, p12: ca.clientP12, password: STORE_PASSWORD };
  const sasl: ClientSecurity = { protocol: 'SASL_SSL', ca: ca.caCert, sasl: { mechanism: MECHANISM, username: SCRAM_USER, password: SCRAM_PASSWORD } };
  const mtls: ClientSecurity = { protocol: 'SSL', ca: ca.caCert, cert: client };
  const variant = (name: VariantName, bootstrap: string, file: string, security: ClientSecurity): Variant =>
    ({ name, bootstrap, env: securityEnv(ca.dir, file, security) });
  const saslVariant = variant('sasl_ssl', saslSsl, 'sasl-ssl', sasl);
  const sslVariant = variant('ssl', ssl, 'ssl', mtls);
  const failures: FailureCell[] = [
    { label: 'sasl_ssl:wrong-password', variant: variant('sasl_ssl', saslSsl, 'wrong-password', { ...sasl, sasl: { ...sasl.sasl!, password: 'not-the-password' } }) },
    { label: 'sasl_ssl:unknown-ca', variant: variant('sasl_ssl', saslSsl, 'unknown-ca', { ...sasl, ca: ca.otherCaCert }) },
    { label: 'ssl:untrusted-cert', variant: variant('ssl', ssl, 'untrusted-cert',
      { ...mtls, cert: { pem: ca.otherClientCert, key: ca.otherClientKey, p12: otherClientP12(ca), password: STORE_PASSWORD } }) },
  ];
  return {
    target,
    variants: [saslVariant, sslVariant],
    failures,
    stop: async () => {
      await target.stop();
      ca.remove();
    },
  };
}
