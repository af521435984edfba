// Inline JAAS configs read as Kafka's JaasConfig reads them, and PlainLoginModule's users.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJaasConfig, plainUsersOf } from '../../../src/security/sasl/jaas.js';

test('modules, flags and options; quoted values keep what they escape', () => {
  const modules = parseJaasConfig('org.apache.kafka.common.security.plain.PlainLoginModule required\n  username="admin" password="a;b=c"\n' +
    '  user_alice="alice-secret" user_bob="say \\"hi\\"" ; other.Module optional debug=true;');
  assert.deepEqual(modules.map((m) => [m.loginModule, m.flag, [...m.options]]), [
    ['org.apache.kafka.common.security.plain.PlainLoginModule', 'required',
      [['username', 'admin'], ['password', 'a;b=c'], ['user_alice', 'alice-secret'], ['user_bob', 'say "hi"']]],
    ['other.Module', 'optional', [['debug', 'true']]],
  ]);
  assert.deepEqual([...plainUsersOf(modules)], [['alice', 'alice-secret'], ['bob', 'say "hi"']]);
});

test('malformed configs get Kafka\'s one-line reasons, never a value', () => {
  assert.throws(() => parseJaasConfig(''), { message: 'Login module not specified in JAAS config' });
  assert.throws(() => parseJaasConfig('a.B required x="secret"'), { message: 'JAAS config entry not terminated by semi-colon' });
  assert.throws(() => parseJaasConfig('a.B;'), { message: 'Login module control flag not specified in JAAS config' });
  assert.throws(() => parseJaasConfig('a.B always;'), { message: "Invalid login module control flag 'always' in JAAS config" });
  assert.throws(() => parseJaasConfig('a.B required user_x;'), { message: "Value not specified for key 'user_x' in JAAS config" });
});
