// @platformatic/kafka over a security run's settings (compat-tests/security/settings.ts: COMPAT_* variables): its
// tls and sasl options; and auth-failure, a login the broker must refuse, observing the errors the client gives.
import { readFileSync } from 'node:fs';

/** The tls/sasl part of a client's options; nothing outside a security run. */
export function security(env = process.env) {
  if (env.COMPAT_SECURITY_PROTOCOL === undefined) return {};
  const tls = {
    ca: [readFileSync(env.COMPAT_SSL_CA)],
    ...(env.COMPAT_SSL_CERT === undefined ? {} : { cert: readFileSync(env.COMPAT_SSL_CERT), key: readFileSync(env.COMPAT_SSL_KEY) }),
  };
  if (env.COMPAT_SASL_MECHANISM === undefined) return { tls };
  return { tls, sasl: { mechanism: env.COMPAT_SASL_MECHANISM, username: env.COMPAT_SASL_USERNAME, password: env.COMPAT_SASL_PASSWORD } };
}

/** Each error in the chain (aggregates' errors, causes) as "name code", depth first; TLS ones keep node's code. */
function chain(error, depth = 0) {
  if (typeof error !== 'object' || error === null || depth > 3) return [];
  const here = [error.name, error.code].filter((part) => part !== undefined).join(' ');
  return [here, ...[...(error.errors ?? []), ...(error.cause ? [error.cause] : [])].flatMap((inner) => chain(inner, depth + 1))];
}

/** Lists topics with settings the broker refuses (no retries). */
export async function authFailure(Admin, base, observe) {
  const admin = new Admin({ ...base, retries: 0 });
  try {
    await admin.listTopics();
  } catch (error) {
    observe('errors', chain(error));
    // A SASL failure carries the broker's text.
    const sasl = [error, ...(error.errors ?? [])].find((e) => /SASL|authenticat/i.test(e?.message ?? '') && e?.code !== 'PLT_KFK_MULTIPLE');
    if (sasl !== undefined) observe('message', sasl.message.replace(/127\.0\.0\.1:\d+/g, '<broker>'));
    return;
  } finally {
    await admin.close();
  }
  throw new Error('the broker accepted the login; Kafka refuses it');
}
