/**
 * Every vendor driver × every mode its API supports, streaming from its
 * stand-in on 127.0.0.1: the extracted fields are exactly what the vendor's
 * wire carried (markers as written, citations a subset of the references,
 * Gemini's byte offsets in Chinese text, reasoning moved out of the answer).
 */
import t from 'tap';
import { findPlatform, supportedModes } from '../../../../services/shared/platforms.js';
import { startPlatformStandins, STANDIN_PLATFORMS } from '../../../standins/index.js';
import { expectedAnswer } from '../../../standins/expected.js';
import { ask } from '../../../helpers/platform-drivers.js';

const standins = await startPlatformStandins();
t.teardown(() => Promise.all([...standins.values()].map((s) => s.server.close())));

const PROMPT = '最好的 CRM 是什么？';

for (const platform of STANDIN_PLATFORMS) {
  t.test(platform, async (t) => {
    const s = standins.get(platform)!;
    for (const mode of supportedModes(findPlatform(platform)!, 'api')) {
      const answer = await ask(s, PROMPT, mode);
      t.same(answer, expectedAnswer(platform, mode, PROMPT), mode);
      for (const c of answer.citationList) {
        t.ok(
          answer.referenceList.some((r) => JSON.stringify(r) === JSON.stringify(c)),
          `${mode}: cited ${c.index} is a reference`,
        );
      }
    }
  });
}

t.test('requests carry the vendor switches and credentials', async (t) => {
  const last = (p: string) => standins.get(p)!.server.requests.at(-1)!;
  await ask(standins.get('kimi')!, 'kimi search', 'search');
  const kimi = standins.get('kimi')!.server.requests.slice(-2);
  t.equal(kimi.length, 2, 'kimi: the $web_search call is echoed back in a second request');
  t.match(kimi[1]!.body, {
    messages: [
      { role: 'user' },
      { role: 'assistant', tool_calls: [{ id: 'call_ws_1' }] },
      { role: 'tool', tool_call_id: 'call_ws_1', name: '$web_search' },
    ],
  });
  await ask(standins.get('claude')!, 'claude', 'reasoning_search');
  t.match(last('claude').headers, {
    'x-api-key': 'test-key-claude',
    'anthropic-version': '2023-06-01',
  });
  await ask(standins.get('gemini')!, 'gemini', 'standard');
  t.match(last('gemini').body, { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } });
  await ask(standins.get('chatgpt')!, 'chatgpt', 'search');
  t.match(last('chatgpt'), {
    path: '/v1/responses',
    body: { tools: [{ type: 'web_search' }], include: ['web_search_call.action.sources'] },
  });
  await ask(standins.get('qwen')!, 'qwen', 'search');
  t.match(last('qwen').headers, {
    'x-dashscope-sse': 'enable',
    authorization: 'Bearer test-key-qwen',
  });
});
