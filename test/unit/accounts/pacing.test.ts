import t from 'tap';
import { pacingTable } from '../../../services/accounts/pacing.js';
import { loadConfig } from '../../../services/shared/config.js';

t.test(
  'defaults from the definitions: Kimi 30 prompts per 3 h, real sites a 20 s gap',
  async (t) => {
    const pacing = pacingTable(loadConfig({}));
    t.same(pacing('kimi'), { quota: { prompts: 30, perMs: 3 * 3_600_000 }, gapMs: 20_000 });
    t.same(pacing('deepseek'), { quota: null, gapMs: 20_000 });
    // The local simulated site needs no pace.
    t.same(pacing('sandbox-web'), { quota: null, gapMs: 0 });
  },
);

t.test('the operator overrides them per platform', async (t) => {
  const pacing = pacingTable(
    loadConfig({ KIMI_WEB_QUOTA: '10/1h', KIMI_WEB_GAP_MS: '0', DEEPSEEK_WEB_QUOTA: '50/1d' }),
  );
  t.same(pacing('kimi'), { quota: { prompts: 10, perMs: 3_600_000 }, gapMs: 0 });
  t.same(pacing('deepseek'), { quota: { prompts: 50, perMs: 86_400_000 }, gapMs: 20_000 });
});
