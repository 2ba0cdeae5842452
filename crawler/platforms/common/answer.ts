/** The last checks before a RawAnswer is recorded as an answer, shared by every API driver. */
import { PlatformError, type PlatformSettings } from '../types.js';
import { type Answer } from '../../../services/shared/contracts/answer.js';
import type { Mode } from '../../../services/shared/platforms.js';
import { refusalError } from './errors.js';
import { buildAnswer, type RawAnswer } from './raw-answer.js';

/** Builds the Answer; a refusal or an empty answer is a final `failed`. */
export function finalAnswer(platform: string, raw: RawAnswer): Answer {
  if (raw.refusal.trim() !== '') throw refusalError(platform, raw.refusal.trim().slice(0, 200));
  const answer = buildAnswer(raw);
  if (answer.answerContent.trim() === '') {
    throw new PlatformError(`${platform} returned no answer (empty content)`, 'failed', false);
  }
  return answer;
}

/** The model the operator chose for `mode` (settings carry the vendor defaults underneath). */
export function modelFor(platform: string, settings: PlatformSettings, mode: Mode): string {
  const model = settings.models?.[mode];
  if (!model)
    throw new PlatformError(`${platform}: no model configured for mode ${mode}`, 'error', false);
  return model;
}

/** The API key, or a final `error` naming the missing credential. */
export function apiKeyOf(platform: string, settings: PlatformSettings): string {
  if (!settings.apiKey)
    throw new PlatformError(`${platform}: no API key configured`, 'error', false);
  return settings.apiKey;
}

export const hasReasoning = (mode: Mode): boolean =>
  mode === 'reasoning' || mode === 'reasoning_search';
export const hasSearch = (mode: Mode): boolean => mode === 'search' || mode === 'reasoning_search';
