// A TLS listener's settings, resolved as Kafka resolves them: each ssl.* key from listener.name.<listener>.<key>
// when set, else the broker-wide key (Kafka's valuesWithPrefixOverride). Turned into Node's TLS server options,
// checked at start-up: a bad store, password or name is one ConfigError line naming the key (never a value).
import { readFileSync } from 'node:fs';
import { createSecureContext, type TlsOptions } from 'node:tls';
import {
  brokerConfigDefinition, ConfigError, listenerPrefixedSettings, parseConfigValue, type BrokerConfig, type ConfigDefinition, type SecurityProtocol,
} from '../../config/index.js';
import { opensslCipherList } from './cipher-suites.js';
import { SslPrincipalMapper } from './principal.js';

export type ClientAuth = 'required' | 'requested' | 'none';

export interface ListenerTls {
  /** Node's tls.createServer options (key material, trust, protocols, ciphers, client certificate request). */
  readonly options: TlsOptions;
  readonly clientAuth: ClientAuth;
  readonly principalMapper: SslPrincipalMapper;
}

const PROTOCOL_VERSIONS = ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
type TlsVersion = (typeof PROTOCOL_VERSIONS)[number];

/** One listener's view of the ssl.* keys: the value and the key it came from (for error lines). */
class ListenerKeys {
  private readonly prefixed: Readonly<Record<string, string>>;
  constructor(private readonly config: BrokerConfig, private readonly listener: string) {
    this.prefixed = listenerPrefixedSettings(config, listener);
  }

  has(key: string): boolean {
    return Object.hasOwn(this.prefixed, key);
  }

  /** The key as the user wrote it: listener-prefixed when the listener sets it. */
  name(key: string): string {
    return this.has(key) ? `listener.name.${this.listener.toLowerCase()}.${key}` : key;
  }

  get<T>(key: string): T {
    if (this.has(key)) {
      const def = brokerConfigDefinition(key) as ConfigDefinition | undefined;
      if (def === undefined) throw new ConfigError(this.name(key), `Unknown configuration ${this.name(key)}`);
      return parseConfigValue(def, this.prefixed[key]!) as T;
    }
    return (this.config as unknown as Record<string, unknown>)[key] as T;
  }
}

/** Resolves and checks one TLS listener's settings; throws ConfigError (one line) on anything Kafka would refuse. */
export function listenerTls(config: BrokerConfig, listener: string, protocol: SecurityProtocol): ListenerTls {
  const keys = new ListenerKeys(config, listener);
  const fail = (key: string, why: string): never => {
    throw new ConfigError(keys.name(key), `${why} (listener ${listener})`);
  };
  const options: TlsOptions = { ...keyStore(keys, fail), ...trustStore(keys, fail), ...protocolRange(keys, fail) };
  const ciphers = opensslCipherList(keys.get<string[]>('ssl.cipher.suites'));
  if ('unknown' in ciphers) fail('ssl.cipher.suites', `Unknown cipher suite ${ciphers.unknown} in ssl.cipher.suites: give IANA names (TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256) or OpenSSL ones`);
  else if (ciphers.ciphers !== undefined) options.ciphers = ciphers.ciphers;
  // KIP-684: on a SASL_SSL listener only a listener-prefixed ssl.client.auth asks for client certificates.
  const clientAuth: ClientAuth = protocol === 'SASL_SSL' && !keys.has('ssl.client.auth') ? 'none' : keys.get<ClientAuth>('ssl.client.auth');
  // 'requested' lets a client without a certificate in; a certificate it does present must still be trusted
  // (Java's trust manager refuses it in the handshake): the listener checks socket.authorized then.
  options.requestCert = clientAuth !== 'none';
  options.rejectUnauthorized = clientAuth === 'required';
  let principalMapper: SslPrincipalMapper;
  try {
    principalMapper = new SslPrincipalMapper(keys.get<string>('ssl.principal.mapping.rules'));
  } catch (err) {
    return fail('ssl.principal.mapping.rules', (err as Error).message);
  }
  try {
    createSecureContext(options);
  } catch (err) {
    // Node's/OpenSSL's reason (bad password: "mac verify failure"; a key that is not the certificate's...), no value.
    fail(options.pfx !== undefined ? 'ssl.keystore.location' : 'ssl.keystore.type', `Failed to load the SSL key or trust material: ${(err as Error).message}`);
  }
  return { options, clientAuth, principalMapper };
}

type Fail = (key: string, why: string) => never;

function storeType(keys: ListenerKeys, key: string): string {
  return keys.get<string>(key).toUpperCase();
}

function readStore(keys: ListenerKeys, key: string, fail: Fail): Buffer {
  const path = keys.get<string>(key);
  try {
    return readFileSync(path);
  } catch (err) {
    return fail(key, `Failed to load SSL store ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

function jksRefused(keys: ListenerKeys, location: string, typeKey: string, fail: Fail): never {
  const path = keys.get<string>(location);
  return fail(typeKey, `JKS stores are not supported by gregor (Node's TLS reads PKCS12 and PEM): convert with ` +
    `keytool -importkeystore -srckeystore ${path} -srcstoretype JKS -destkeystore ${path.replace(/\.jks$/i, '')}.p12 ` +
    `-deststoretype PKCS12 and set ${keys.name(typeKey)}=PKCS12`);
}

/** The broker's key and certificate chain: PKCS12 (Node's pfx), a PEM file, or inline PEM, with Kafka's checks. */
function keyStore(keys: ListenerKeys, fail: Fail): TlsOptions {
  const type = storeType(keys, 'ssl.keystore.type');
  const location = keys.get<string | null>('ssl.keystore.location');
  const password = keys.get<string | null>('ssl.keystore.password');
  const keyPassword = keys.get<string | null>('ssl.key.password');
  const chain = keys.get<string | null>('ssl.keystore.certificate.chain');
  const key = keys.get<string | null>('ssl.keystore.key');
  if (key !== null) {
    if (type !== 'PEM') fail('ssl.keystore.key', `SSL private key can be specified only for PEM, but key store type is ${type}.`);
    if (chain === null) fail('ssl.keystore.certificate.chain', 'SSL private key is specified, but certificate chain is not specified.');
    if (location !== null) fail('ssl.keystore.location', 'Both SSL key store location and separate private key are specified.');
    if (password !== null) fail('ssl.keystore.password', 'SSL key store password cannot be specified with PEM format, only key password may be specified.');
    return { key: normalizePem(key), cert: normalizePem(chain!), ...(keyPassword === null ? {} : { passphrase: keyPassword }) };
  }
  if (chain !== null) fail('ssl.keystore.key', 'SSL certificate chain is specified, but private key is not specified');
  if (location === null) {
    if (password !== null) fail('ssl.keystore.location', 'SSL key store is not specified, but key store password is specified.');
    return fail('ssl.keystore.location', 'A TLS listener needs a key store: set ssl.keystore.location (PKCS12 or PEM), or ssl.keystore.type=PEM with ssl.keystore.certificate.chain and ssl.keystore.key');
  }
  if (type === 'PEM') {
    if (password !== null) fail('ssl.keystore.password', 'SSL key store password cannot be specified with PEM format, only key password may be specified');
    const pem = normalizePem(readStore(keys, 'ssl.keystore.location', fail).toString('utf8'));
    return { key: pem, cert: pem, ...(keyPassword === null ? {} : { passphrase: keyPassword }) };
  }
  if (password === null) fail('ssl.keystore.password', 'SSL key store is specified, but key store password is not specified.');
  if (type === 'JKS') return jksRefused(keys, 'ssl.keystore.location', 'ssl.keystore.type', fail);
  if (type !== 'PKCS12') return fail('ssl.keystore.type', `Key store type ${type} is not supported: use PKCS12 or PEM`);
  // Node opens a PKCS12 store with one password; keytool's PKCS12 stores protect the key with the store's.
  return { pfx: readStore(keys, 'ssl.keystore.location', fail), passphrase: password! };
}

/** The CAs a client certificate must chain to: PEM (file or inline); PKCS12 and JKS get a conversion command. */
function trustStore(keys: ListenerKeys, fail: Fail): TlsOptions {
  const type = storeType(keys, 'ssl.truststore.type');
  const location = keys.get<string | null>('ssl.truststore.location');
  const password = keys.get<string | null>('ssl.truststore.password');
  const certificates = keys.get<string | null>('ssl.truststore.certificates');
  if (certificates !== null) {
    if (type !== 'PEM') fail('ssl.truststore.certificates', `SSL trust store certs can be specified only for PEM, but trust store type is ${type}.`);
    if (location !== null) fail('ssl.truststore.location', 'Both SSL trust store location and separate trust certificates are specified.');
    if (password !== null) fail('ssl.truststore.password', 'SSL trust store password cannot be specified for PEM format.');
    return { ca: normalizePem(certificates) };
  }
  if (location === null) {
    if (password !== null) fail('ssl.truststore.location', 'SSL trust store is not specified, but trust store password is specified.');
    return {};
  }
  if (type === 'PEM') {
    if (password !== null) fail('ssl.truststore.password', 'SSL trust store password cannot be specified for PEM format.');
    return { ca: normalizePem(readStore(keys, 'ssl.truststore.location', fail).toString('utf8')) };
  }
  if (type === 'JKS') return jksRefused(keys, 'ssl.truststore.location', 'ssl.truststore.type', fail);
  const path = keys.get<string>('ssl.truststore.location');
  return fail('ssl.truststore.type', `Trust store type ${type} is not supported by gregor (Node's TLS takes trusted certificates as PEM): ` +
    `convert with openssl pkcs12 -in ${path} -nokeys -out ${path.replace(/\.(p12|pfx)$/i, '')}.pem and set ${keys.name('ssl.truststore.type')}=PEM`);
}

/**
 * ssl.enabled.protocols as Node's version range (Node takes a contiguous range). ssl.protocol names the SSLContext
 * Java builds; on a Java server it does not narrow what ssl.enabled.protocols enables, so it is only checked.
 */
function protocolRange(keys: ListenerKeys, fail: Fail): TlsOptions {
  const protocol = keys.get<string>('ssl.protocol');
  if (!['TLS', 'TLSV1', 'TLSV1.1', 'TLSV1.2', 'TLSV1.3', 'SSL'].includes(protocol.toUpperCase())) {
    fail('ssl.protocol', `Unknown TLS protocol ${protocol} in ssl.protocol: use TLSv1.3 or TLSv1.2`);
  }
  const enabled = keys.get<string[]>('ssl.enabled.protocols').map((p) => p.trim()).filter((p) => p !== '');
  if (enabled.length === 0) return {};
  const indexes = enabled.map((name) => {
    const index = (PROTOCOL_VERSIONS as readonly string[]).indexOf(name);
    if (index < 0) fail('ssl.enabled.protocols', `Unknown TLS protocol ${name} in ssl.enabled.protocols: use ${PROTOCOL_VERSIONS.join(', ')}`);
    return index;
  }).sort();
  const [low, high] = [indexes[0]!, indexes[indexes.length - 1]!];
  if (high - low + 1 !== new Set(indexes).size) {
    fail('ssl.enabled.protocols', `ssl.enabled.protocols ${enabled.join(',')} leaves a gap: gregor's TLS enables a contiguous range of versions`);
  }
  return { minVersion: PROTOCOL_VERSIONS[low] as TlsVersion, maxVersion: PROTOCOL_VERSIONS[high] as TlsVersion };
}

/**
 * PEM text as OpenSSL reads it. Kafka reads inline PEM with any whitespace in the base64 (a properties value is
 * often one line: "-----BEGIN CERTIFICATE----- MIIB... -----END CERTIFICATE-----"); OpenSSL needs its lines.
 */
export function normalizePem(text: string): string {
  const blocks = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g)];
  if (blocks.length === 0) return text;
  return blocks.map(([block, label, body]) => {
    // A traditional encrypted key's headers (Proc-Type:, DEK-Info:) need their lines: such a block is kept as written.
    if (body!.includes(':')) return block;
    const wrapped = body!.replace(/\s+/g, '').match(/.{1,64}/g) ?? [];
    return [`-----BEGIN ${label}-----`, ...wrapped, `-----END ${label}-----`].join('\n');
  }).join('\n') + '\n';
}
