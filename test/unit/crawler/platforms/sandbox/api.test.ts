import t from 'tap';
import {
  SANDBOX_MODELS,
  withSandboxDefaults,
} from '../../../../../crawler/platforms/sandbox/api.js';

const base = { apiBaseUrl: 'http://127.0.0.1:1', webUrl: '', timeoutMs: 1000 };

t.test('the sandbox fills a key and a model per mode, as apiDefaults would', async (t) => {
  t.same(withSandboxDefaults(base), { ...base, apiKey: 'sandbox', models: SANDBOX_MODELS });
  t.same(Object.keys(SANDBOX_MODELS).sort(), [
    'reasoning',
    'reasoning_search',
    'search',
    'standard',
  ]);
});

t.test('the operator’s key and models win', async (t) => {
  const s = withSandboxDefaults({ ...base, apiKey: 'k', models: { search: 'mine' } });
  t.equal(s.apiKey, 'k');
  t.equal(s.models!.search, 'mine');
  t.equal(s.models!.standard, 'sandbox-standard');
  t.same(
    base,
    { apiBaseUrl: 'http://127.0.0.1:1', webUrl: '', timeoutMs: 1000 },
    'input untouched',
  );
});
