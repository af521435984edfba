// Which cells a security run (--security) has: the scenarios that carry a client's whole data path (admin, produce
// and consume through a group, transactions) over SASL_SSL with SCRAM-SHA-512 and over SSL with a client
// certificate, then the logins that must be refused (auth-failure, one cell each), the same against both brokers.
// Every variant's settings reach the clients as environment variables (settings.ts), set for the cell's duration.
import type { ScenarioName } from '../runner/types.js';
import type { SecureTarget, Variant, VariantName } from './target.js';
import { SECURITY_ENV_NAMES } from './settings.js';

/** Chosen for what each adds over TLS and SASL (README: "Security variants"). */
export const SECURITY_SCENARIOS: readonly ScenarioName[] = ['topic-admin', 'produce-consume', 'commit-resume', 'transactions'];

/**
 * Clients that run fewer of them, with the reason. The stock tools are the Java client driven from a shell (its own
 * column runs every row) and a JVM start per call (~30 s a row here); one row per variant shows the
 * --command-config file reaches them.
 */
export const SECURITY_SCENARIOS_OF: Record<string, readonly ScenarioName[]> = {
  'java-tools': ['produce-consume'],
};

/** The matrix rows a security run may have: "<variant>:<scenario>" and the failure cells. */
export const SECURITY_CELL_NAMES: readonly string[] = [
  ...['sasl_ssl', 'ssl'].flatMap((variant) => SECURITY_SCENARIOS.map((scenario) => `${variant}:${scenario}`)),
  'sasl_ssl:wrong-password', 'sasl_ssl:unknown-ca', 'ssl:untrusted-cert',
];

/**
 * A variant a client cannot run on either broker, with the reason (its FINDINGS.md says more). kcat 1.7.1 is
 * linked with librdkafka 2.0.2, whose SCRAM client repeats the client nonce in its final message
 * (confluentinc/librdkafka#4895, fixed in 2.6.1); Kafka 4.x refuses it as invalid credentials, and so does gregor.
 */
export const SECURITY_CANNOT: Record<string, Partial<Record<VariantName, string>>> = {
  kcat: { sasl_ssl: "librdkafka 2.0.2's SCRAM repeats the client nonce: Kafka 4.3.1 refuses every login (librdkafka#4895)" },
};

/**
 * Refused logins whose error gregor cannot give as Kafka does, with the reason; their observations are excused
 * (the cell still fails if the login is accepted). Node's TLS server checks a client certificate after the
 * handshake and can only close the connection; Kafka's (Java's) trust manager refuses it inside the handshake with
 * a certificate_unknown/bad_certificate alert (README.md, "Security").
 */
export const GREGOR_DIFFERS: Record<string, string> = {
  'ssl:untrusted-cert': 'node:tls closes the connection where Kafka sends a TLS alert (README.md, Security)',
};

export interface SecurityCell {
  label: string;
  scenario: ScenarioName;
  variant: Variant;
  /** Why this client skips the cell, on both brokers. */
  cannot?: string;
  /** Against gregor: why the cell's observations are not compared with Kafka's. */
  excused?: string;
}

/** The cells in run order; `wanted` (--scenario) keeps those scenarios ("auth-failure": the refused logins). */
export function securityCells(secure: SecureTarget, client: string, wanted: readonly string[]): SecurityCell[] {
  const keep = (scenario: string): boolean => wanted.length === 0 || wanted.includes(scenario);
  const cell = (label: string, scenario: ScenarioName, variant: Variant): SecurityCell => {
    const cannot = SECURITY_CANNOT[client]?.[variant.name];
    const excused = secure.target.kind === 'gregor' ? GREGOR_DIFFERS[label] : undefined;
    return { label, scenario, variant, ...(cannot === undefined ? {} : { cannot: `${cannot} (clients/${client}/FINDINGS.md)` }),
      ...(excused === undefined ? {} : { excused }) };
  };
  return [
    ...secure.variants.flatMap((variant) => (SECURITY_SCENARIOS_OF[client] ?? SECURITY_SCENARIOS).filter(keep)
      .map((scenario) => cell(`${variant.name}:${scenario}`, scenario, variant))),
    ...(keep('auth-failure') ? secure.failures.map(({ label, variant }) => cell(label, 'auth-failure', variant)) : []),
  ];
}

/** Replaces the process's security variables: the in-process clients and every program started after read them. */
export function setSecurityEnv(env: Record<string, string>): void {
  for (const name of SECURITY_ENV_NAMES) delete process.env[name];
  Object.assign(process.env, env);
}
