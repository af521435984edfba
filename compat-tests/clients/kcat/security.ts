// kcat in a security run: it reads the librdkafka properties named by KCAT_CONFIG itself (security/settings.ts),
// so its scenarios run unchanged. auth-failure asks for metadata with settings the broker refuses and observes the
// failure librdkafka logs ("SSL handshake failed: ...", "SASL authentication error: ...") without run details.
import { runCommand } from '../../lib/command.js';
import { pass, type Scenario } from '../../runner/types.js';

// "%3|<time>|FAIL|rdkafka#...| [thrd:...]: ssl://127.0.0.1:<port>/bootstrap: <reason> (after 3ms in state ...)"
const FAIL_LINE = /\|FAIL\|[^|]*\| \[thrd:[^\]]*\]: \S+: (.*?)(?: \(after \d+ms in state \w+[^)]*\))?$/m;

export const authFailure: Scenario = async (context) => {
  const result = await runCommand('kcat', ['-L', '-b', context.target.bootstrap, '-m', '5'], { timeoutMs: 60_000 });
  if (result.code === 0) throw new Error('the broker accepted the login; Kafka refuses it');
  const reason = FAIL_LINE.exec(result.stderr);
  if (reason === null) throw new Error(`kcat logged no connection failure: ${result.stderr.trim().split('\n').slice(-2).join(' | ')}`);
  context.observe('message', reason[1]);
  return pass;
};
