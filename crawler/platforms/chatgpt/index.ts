/**
 * OpenAI. Standard answers use Chat Completions; reasoning and search use the
 * Responses API, the only one that returns reasoning summaries
 * (`reasoning.summary`) and the full list of sources a search consulted
 * (`include: web_search_call.action.sources`) next to the cited
 * `url_citation` annotations.
 */
import type { ApiContext, Job, ApiDriver } from '../types.js';
import type { Answer } from '../../../services/shared/contracts/answer.js';
import { hasReasoning, hasSearch } from '../common/answer.js';
import { chatDriver } from '../common/chat.js';
import { askResponses } from '../common/responses-driver.js';

const chat = chatDriver({ platform: 'chatgpt', path: '/chat/completions', switches: () => ({}) });

function ask(job: Job, ctx: ApiContext): Promise<Answer> {
  if (job.mode === 'standard') return chat.ask(job, ctx);
  const body: Record<string, unknown> = {};
  if (hasReasoning(job.mode)) body.reasoning = { effort: 'medium', summary: 'auto' };
  if (hasSearch(job.mode)) {
    body.tools = [{ type: 'web_search' }];
    body.include = ['web_search_call.action.sources'];
  }
  return askResponses({ platform: 'chatgpt', path: '/responses', body }, job, ctx);
}

export const chatgptApi: ApiDriver = { ask };
