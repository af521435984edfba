// A certificate authority the tests make for themselves with the `openssl` command (node:crypto cannot sign
// X.509 certificates): a CA, a server certificate for localhost/127.0.0.1, a client certificate, and a second CA
// with its own client (one the broker does not trust), as PEM files and PKCS12 stores in a temp dir.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const STORE_PASSWORD = 'store-secret-42';
export const CLIENT_DN = 'CN=client,OU=eng,O=acme';

export interface TestCa {
  readonly dir: string;
  /** PEM files. */
  readonly caCert: string;
  readonly serverCert: string;
  readonly serverKey: string;
  /** The server's key and chain in one PEM file (ssl.keystore.type=PEM with a location). */
  readonly serverPem: string;
  /** PKCS12 keystore of the server, STORE_PASSWORD. */
  readonly serverP12: string;
  readonly clientCert: string;
  readonly clientKey: string;
  readonly clientP12: string;
  /** A CA the broker does not trust, and a client certificate it signed. */
  readonly otherCaCert: string;
  readonly otherClientCert: string;
  readonly otherClientKey: string;
  read(path: string): string;
  remove(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function issue(dir: string, name: string, subject: string, ca: string, extensions: string): void {
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.ec.key`]);
  openssl(dir, ['pkcs8', '-topk8', '-nocrypt', '-in', `${name}.ec.key`, '-out', `${name}.key`]);
  openssl(dir, ['req', '-new', '-key', `${name}.key`, '-subj', subject, '-out', `${name}.csr`]);
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial',
    '-days', '2', '-sha256', '-extfile', `${name}.ext`, '-out', `${name}.pem`]);
}

function makeCa(dir: string, name: string, subject: string): void {
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.ec.key`]);
  openssl(dir, ['pkcs8', '-topk8', '-nocrypt', '-in', `${name}.ec.key`, '-out', `${name}.key`]);
  openssl(dir, ['req', '-x509', '-new', '-key', `${name}.key`, '-subj', subject, '-days', '2', '-sha256', '-out', `${name}.pem`]);
}

export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'gregor-tls-'));
  makeCa(dir, 'ca', '/CN=gregor test CA');
  makeCa(dir, 'other-ca', '/CN=someone else CA');
  issue(dir, 'server', '/CN=localhost', 'ca', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  // openssl's -subj lists RDNs in certificate order; RFC 2253 (Kafka's principal) prints them reversed.
  issue(dir, 'client', '/O=acme/OU=eng/CN=client', 'ca', 'extendedKeyUsage=clientAuth\n');
  issue(dir, 'other-client', '/O=acme/OU=eng/CN=client', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  writeFileSync(join(dir, 'server-bundle.pem'), readFileSync(join(dir, 'server.key'), 'utf8') + readFileSync(join(dir, 'server.pem'), 'utf8'));
  for (const name of ['server', 'client']) {
    openssl(dir, ['pkcs12', '-export', '-in', `${name}.pem`, '-inkey', `${name}.key`, '-certfile', 'ca.pem', '-name', name,
      '-passout', `pass:${STORE_PASSWORD}`, '-out', `${name}.p12`]);
  }
  const at = (file: string) => join(dir, file);
  return {
    dir,
    caCert: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    serverPem: at('server-bundle.pem'),
    serverP12: at('server.p12'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    clientP12: at('client.p12'),
    otherCaCert: at('other-ca.pem'),
    otherClientCert: at('other-client.pem'),
    otherClientKey: at('other-client.key'),
    read: (path) => readFileSync(path, 'utf8'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
