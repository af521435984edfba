// ssl.principal.mapping.rules as Kafka's SslPrincipalMapper reads and applies them (its unit test's vectors), and
// the certificate subject in Java's RFC 2253 form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { ANONYMOUS } from '../../../src/security/principal.js';
import { SslPrincipalMapper, distinguishedName, tlsPrincipal } from '../../../src/security/tls/principal.js';
import { makeTestCa, CLIENT_DN } from './test-ca.js';

test('the rules Kafka accepts and refuses', () => {
  for (const rules of [
    'DEFAULT', 'RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/', 'RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L, DEFAULT',
    'RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/', 'RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/L',
    'RULE:^cn=(.?),ou=(.?),dc=(.?),dc=(.?)$/$1@$2/U', 'RULE:^CN=([^,ADEFLTU,]+)(,.*|$)/$1/', 'RULE:^CN=([^,DEFAULT,]+)(,.*|$)/$1/',
    '', ',   , , ,      , , ,   ',
  ]) assert.doesNotThrow(() => new SslPrincipalMapper(rules), rules);
  for (const rules of [
    'default', 'DEFAUL', 'DEFAULT/L', 'DEFAULT/U', 'RULE:CN=(.*?),OU=ServiceUsers.*/$1', 'rule:^CN=(.*?),OU=ServiceUsers.*$/$1/',
    'RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L/U', 'RULE:^CN=(.*?),OU=ServiceUsers.*$/L', 'RULE:^CN=(.*?),OU=ServiceUsers.*$/U',
    'RULE:^CN=(.*?),OU=ServiceUsers.*$/LU',
  ]) assert.throws(() => new SslPrincipalMapper(rules), /Invalid rule/, rules);
});

test('the first rule that matches names the principal; none matching is an error', () => {
  const mapper = new SslPrincipalMapper([
    'RULE:^CN=(.*?),OU=ServiceUsers.*$/$1/L', 'RULE:^CN=(.*?),OU=(.*?),O=(.*?),L=(.*?),ST=(.*?),C=(.*?)$/$1@$2/L',
    'RULE:^cn=(.*?),ou=(.*?),dc=(.*?),dc=(.*?)$/$1@$2/U', 'RULE:^.*[Cc][Nn]=([a-zA-Z0-9.]*).*$/$1/U', 'DEFAULT',
  ].join(', '));
  assert.equal(mapper.name('CN=Duke,OU=ServiceUsers,O=Org,C=US'), 'duke');
  assert.equal(mapper.name('CN=Duke,OU=SME,O=mycp,L=Fulton,ST=MD,C=US'), 'duke@sme');
  assert.equal(mapper.name('cn=duke,ou=sme,dc=mycp,dc=com'), 'DUKE@SME');
  assert.equal(mapper.name('cN=duke,OU=JavaSoft,O=Sun Microsystems'), 'DUKE');
  assert.equal(mapper.name('OU=JavaSoft,O=Sun Microsystems,C=US'), 'OU=JavaSoft,O=Sun Microsystems,C=US');
  assert.equal(new SslPrincipalMapper('RULE:^CN=((\\\\, *|\\w)+)(,.*|$)/$1/,DEFAULT').name('CN=Tkac\\, Adam,OU=ITZ,DC=geodis,DC=cz'), 'Tkac\\, Adam');
  assert.throws(() => new SslPrincipalMapper('RULE:^CN=x$/y/').name('CN=z'), /No rules apply to CN=z/);
});

test('a certificate\'s subject in RFC 2253 order; no certificate is User:ANONYMOUS', () => {
  const ca = makeTestCa();
  try {
    const cert = new X509Certificate(ca.read(ca.clientCert));
    const peer = { raw: cert.raw } as import('node:tls').PeerCertificate;
    assert.equal(distinguishedName(peer), CLIENT_DN);
    assert.equal(tlsPrincipal(peer, new SslPrincipalMapper('DEFAULT')), `User:${CLIENT_DN}`);
    assert.equal(tlsPrincipal({} as import('node:tls').PeerCertificate, new SslPrincipalMapper('DEFAULT')), ANONYMOUS);
  } finally {
    ca.remove();
  }
});
