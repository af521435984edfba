// The security variants' client settings (--security): one description of how a client connects (protocol, CA,
// client certificate, SASL user), handed to every client program as COMPAT_* environment variables, plus the two
// files the JVM tools and kcat read (a Java properties file, a librdkafka one). Each program turns them into its own
// options (kafkajs ssl/sasl, librdkafka properties, kgo/Sarama TLS and SCRAM, kafka-python's ssl_*/sasl_*).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ClientSecurity {
  protocol: 'SASL_SSL' | 'SSL';
  /** PEM file of the CA the client trusts. */
  ca: string;
  /** The client's certificate and key (PEM files) and the same as a PKCS12 store (for Java), on mTLS. */
  cert?: { pem: string; key: string; p12: string; password: string };
  sasl?: { mechanism: 'SCRAM-SHA-512'; username: string; password: string };
}

/** Java client properties (ssl.*, sasl.*), as a person writes them into a --command-config file. */
export function javaProperties(security: ClientSecurity): string[] {
  const lines = [`security.protocol=${security.protocol}`, 'ssl.truststore.type=PEM', `ssl.truststore.location=${security.ca}`];
  if (security.cert !== undefined) {
    lines.push('ssl.keystore.type=PKCS12', `ssl.keystore.location=${security.cert.p12}`, `ssl.keystore.password=${security.cert.password}`);
  }
  if (security.sasl !== undefined) {
    const { mechanism, username, password } = security.sasl;
    lines.push(`sasl.mechanism=${mechanism}`,
      `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${username}" password="${password}";`);
  }
  return lines;
}

/** librdkafka properties (kcat's -F file; confluent-kafka takes the same keys). */
export function librdkafkaProperties(security: ClientSecurity): string[] {
  const lines = [`security.protocol=${security.protocol.toLowerCase()}`, `ssl.ca.location=${security.ca}`];
  if (security.cert !== undefined) lines.push(`ssl.certificate.location=${security.cert.pem}`, `ssl.key.location=${security.cert.key}`);
  if (security.sasl !== undefined) {
    lines.push(`sasl.mechanisms=${security.sasl.mechanism}`, `sasl.username=${security.sasl.username}`, `sasl.password=${security.sasl.password}`);
  }
  return lines;
}

/**
 * The environment a client program runs with: COMPAT_SECURITY_PROTOCOL, COMPAT_SSL_CA, COMPAT_SSL_CERT/_KEY (mTLS),
 * COMPAT_SASL_MECHANISM/_USERNAME/_PASSWORD, COMPAT_TOOL_CONFIG (bin/kafka-run-class passes it to every tool given
 * --bootstrap-server as --command-config; the Java client loads it too) and COMPAT_LIBRDKAFKA_CONFIG (confluent-kafka
 * loads it), also as KCAT_CONFIG (kcat reads that file itself).
 * The files are written into dir under `name`.
 */
export function securityEnv(dir: string, name: string, security: ClientSecurity): Record<string, string> {
  const javaFile = join(dir, `${name}.client.properties`);
  const kcatFile = join(dir, `${name}.kcat.conf`);
  writeFileSync(javaFile, `${javaProperties(security).join('\n')}\n`);
  writeFileSync(kcatFile, `${librdkafkaProperties(security).join('\n')}\n`);
  return {
    COMPAT_SECURITY_PROTOCOL: security.protocol,
    COMPAT_SSL_CA: security.ca,
    ...(security.cert === undefined ? {} : { COMPAT_SSL_CERT: security.cert.pem, COMPAT_SSL_KEY: security.cert.key }),
    ...(security.sasl === undefined ? {} : {
      COMPAT_SASL_MECHANISM: security.sasl.mechanism,
      COMPAT_SASL_USERNAME: security.sasl.username,
      COMPAT_SASL_PASSWORD: security.sasl.password,
    }),
    COMPAT_TOOL_CONFIG: javaFile,
    COMPAT_LIBRDKAFKA_CONFIG: kcatFile,
    KCAT_CONFIG: kcatFile,
  };
}

/** Every variable securityEnv may set: cleared before a variant sets its own. */
export const SECURITY_ENV_NAMES = ['COMPAT_SECURITY_PROTOCOL', 'COMPAT_SSL_CA', 'COMPAT_SSL_CERT', 'COMPAT_SSL_KEY',
  'COMPAT_SASL_MECHANISM', 'COMPAT_SASL_USERNAME', 'COMPAT_SASL_PASSWORD', 'COMPAT_TOOL_CONFIG', 'COMPAT_LIBRDKAFKA_CONFIG', 'KCAT_CONFIG'] as const;
