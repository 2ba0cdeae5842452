import t from 'tap';
import { MODES } from '../../../services/shared/platforms.js';
import { modeOfRequest, promptOfMessages, sandboxModel } from '../../../sandbox/request.js';
import { SANDBOX_MODELS } from '../../../crawler/platforms/sandbox/api.js';

t.test('the model name picks the mode; unknown names are standard', async (t) => {
  for (const mode of MODES) {
    t.equal(modeOfRequest({ model: sandboxModel(mode) }), mode, mode);
    t.equal(SANDBOX_MODELS[mode], sandboxModel(mode), `the driver names ${mode} the same`);
  }
  t.equal(modeOfRequest({ model: 'gpt-4o' }), 'standard');
  t.equal(modeOfRequest({}), 'standard');
});

t.test('thinking.type and web_search.enable override the model', async (t) => {
  const on = { thinking: { type: 'enabled' }, web_search: { enable: true } };
  const off = { thinking: { type: 'disabled' }, web_search: { enable: false } };
  t.equal(modeOfRequest({ model: 'x', ...on }), 'reasoning_search');
  t.equal(modeOfRequest({ model: 'sandbox-reasoning-search', ...off }), 'standard');
  t.equal(
    modeOfRequest({ model: 'sandbox-search', thinking: { type: 'enabled' } }),
    'reasoning_search',
  );
  t.equal(
    modeOfRequest({ model: 'sandbox-reasoning', web_search: { enable: true } }),
    'reasoning_search',
  );
  t.equal(
    modeOfRequest({ model: 'sandbox-reasoning', thinking: { type: 'auto' }, web_search: true }),
    'reasoning',
    'values the vendors do not send change nothing',
  );
});

t.test('the prompt is the last user message', async (t) => {
  t.equal(
    promptOfMessages([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'second' },
      { role: 'system', content: 'be brief' },
    ]),
    'second',
  );
  t.equal(
    promptOfMessages([
      {
        role: 'user',
        content: [{ type: 'text', text: 'a ' }, { type: 'image_url' }, { type: 'text', text: 'b' }],
      },
    ]),
    'a b',
  );
  t.equal(promptOfMessages([{ role: 'system', content: 'x' }]), undefined);
  t.equal(promptOfMessages('nope'), undefined);
});
