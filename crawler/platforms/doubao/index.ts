/**
 * ByteDance Doubao on Volcengine Ark. Chat Completions with `thinking.type`
 * for standard and reasoning (`reasoning_content`); search through Ark's
 * Responses API with the `web_search` tool, which needs no console-made bot
 * and returns rich `url_citation` annotations (title, site, logo, cover
 * image) that are both the sources and the citations.
 */
import type { ApiContext, Job, ApiDriver } from '../types.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { hasReasoning, hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';
import { askResponses } from '../common/responses-driver.js';

const thinking = (job: Job['mode']) => ({
  thinking: { type: hasReasoning(job) ? 'enabled' : 'disabled' },
});

const chat = chatDriver({ platform: 'doubao', path: '/chat/completions', switches: thinking });

function ask(job: Job, ctx: ApiContext): Promise<Answer> {
  if (!hasSearch(job.mode)) return chat.ask(job, ctx);
  const body = { ...thinking(job.mode), tools: [{ type: 'web_search' }] };
  return askResponses({ platform: 'doubao', path: '/responses', body }, job, ctx);
}

export const doubaoApi: ApiDriver = { ask };
