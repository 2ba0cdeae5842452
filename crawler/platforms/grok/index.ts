/**
 * xAI Grok. Chat Completions for standard and reasoning (grok-3-mini streams
 * its `reasoning_content`); search goes through the Responses API with the
 * `web_search` tool, since Live Search on Chat Completions is gone (HTTP 410).
 * The response's `citations` lists every URL the search encountered: that is
 * the referenceList, in xAI's order. The `url_citation` annotations (which may
 * carry only the URL) are the cited subset.
 */
import type { ApiContext, Job, ApiDriver } from '../types.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { hasReasoning, hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';
import { askResponses } from '../common/responses-driver.js';

const chat = chatDriver({
  platform: 'grok',
  path: '/chat/completions',
  switches: (mode) => (hasReasoning(mode) ? { reasoning_effort: 'high' } : {}),
});

function ask(job: Job, ctx: ApiContext): Promise<Answer> {
  if (!hasSearch(job.mode)) return chat.ask(job, ctx);
  return askResponses(
    { platform: 'grok', path: '/responses', body: { tools: [{ type: 'web_search' }] } },
    job,
    ctx,
  );
}

export const grokApi: ApiDriver = { ask };
