/** A new account's checks (services/accounts/validate.ts checkNew): its label, its region. */
import t from 'tap';
import { checkNew } from '../../../services/accounts/validate.js';

t.test('a region for a site that serves mainland China; none for one that does not', async (t) => {
  t.same(checkNew({ platform: 'deepseek', label: 'ds', regionCode: '310100' }), {
    platform: 'deepseek',
    label: 'ds',
    regionCode: '310100',
  });
  t.same(checkNew({ platform: 'perplexity', label: 'p' }), {
    platform: 'perplexity',
    label: 'p',
    regionCode: null,
  });
  t.throws(() => checkNew({ platform: 'perplexity', label: 'p', regionCode: '310100' }), {
    code: 400,
    type: 'VALIDATION_FAILED',
    message: /regionCode: Perplexity does not serve mainland China: its accounts take no region/,
  });
});
