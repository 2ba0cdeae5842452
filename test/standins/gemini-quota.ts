/**
 * Gemini's 429 RESOURCE_EXHAUSTED replies in Google's error shape. They share
 * one message ("…check your plan and billing details"), so only the details
 * tell them apart: a per-minute QuotaFailure with a RetryInfo is a rate limit;
 * a per-day QuotaFailure comes with a short RetryInfo too, yet clears only
 * the next day; and a spent plan carries no quota details at all, only a Help
 * link (observed in python-genai#1427, gemini-cli#8437).
 */
import type { ErrorReply } from './errors.js';

export type GeminiQuotaKind = 'rate' | 'quota_day' | 'quota_plan';

const MESSAGE =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.';
const HELP = {
  '@type': 'type.googleapis.com/google.rpc.Help',
  links: [
    {
      description: 'Learn more about Gemini API quotas',
      url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
    },
  ],
};
const METRIC = 'generativelanguage.googleapis.com/generate_content_free_tier_requests';

function exhausted(limit: { quotaId: string; quotaValue: string; retryDelay: string } | null) {
  const details: object[] = [HELP];
  let message = MESSAGE;
  if (limit) {
    message += `\n* Quota exceeded for metric: ${METRIC}, limit: ${limit.quotaValue}, model: gemini-2.5-flash\nPlease retry in ${limit.retryDelay}.`;
    details.push(
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: METRIC,
            quotaId: limit.quotaId,
            quotaDimensions: { location: 'global', model: 'gemini-2.5-flash' },
            quotaValue: limit.quotaValue,
          },
        ],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: limit.retryDelay },
    );
  }
  return {
    status: 429,
    body: { error: { code: 429, message, status: 'RESOURCE_EXHAUSTED', details } },
  };
}

export const GEMINI_QUOTA: Record<GeminiQuotaKind, ErrorReply> = {
  rate: exhausted({
    quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier',
    quotaValue: '10',
    retryDelay: '2s',
  }),
  quota_day: exhausted({
    quotaId: 'GenerateRequestsPerDayPerProjectPerModel-FreeTier',
    quotaValue: '250',
    retryDelay: '31s',
  }),
  quota_plan: exhausted(null),
};
