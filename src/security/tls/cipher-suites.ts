// ssl.cipher.suites holds Java's (IANA) names; Node's TLS takes OpenSSL's. TLS 1.3 suites share one name in both.
// A name that is neither a known IANA name nor an OpenSSL name Node offers is a start-up error naming it.
import { getCiphers } from 'node:tls';

/** The TLS 1.2 suites Java and OpenSSL 3 both offer, IANA name → OpenSSL name (from `openssl ciphers -stdname`). */
const IANA_TO_OPENSSL: Readonly<Record<string, string>> = {
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_DHE_RSA_WITH_AES_256_GCM_SHA384: 'DHE-RSA-AES256-GCM-SHA384',
  TLS_DHE_RSA_WITH_AES_128_GCM_SHA256: 'DHE-RSA-AES128-GCM-SHA256',
  TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'DHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384: 'ECDHE-ECDSA-AES256-SHA384',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384: 'ECDHE-RSA-AES256-SHA384',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_CBC_SHA256: 'AES256-SHA256',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
};

const TLS13_SUITES: ReadonlySet<string> = new Set(['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256']);

/**
 * The `ciphers` string for Node's TLS (TLS 1.3 names and OpenSSL names together, as Node takes them), or undefined
 * for an empty list (every suite the engine enables, as Kafka's empty default means). Returns the unknown name as
 * an error string.
 */
export function opensslCipherList(suites: readonly string[]): { ciphers?: string } | { unknown: string } {
  const names = suites.map((s) => s.trim()).filter((s) => s !== '');
  if (names.length === 0) return {};
  const offered = new Set(getCiphers().map((c) => c.toUpperCase()));
  const out: string[] = [];
  for (const name of names) {
    const openssl = TLS13_SUITES.has(name) ? name : IANA_TO_OPENSSL[name] ?? (offered.has(name.toUpperCase()) ? name : undefined);
    if (openssl === undefined) return { unknown: name };
    out.push(openssl);
  }
  return { ciphers: out.join(':') };
}
