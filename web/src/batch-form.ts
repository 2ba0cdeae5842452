/** The new batch form's pure parts: prompts from pasted text, the request body, errors by field. */
import type { FieldProblem, PlatformInfo } from './types.js';

/**
 * One prompt per line; list markers of a pasted list (`1.`, `2)`, `3、`, `-`,
 * `*`, `•`) are dropped, and blank lines skipped.
 */
export function parsePrompts(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/^\s*(?:\d{1,3}[.)]\s+|\d{1,3}、\s*|[-*•·]\s+)/, '').trim())
    .filter((line) => line.length > 0);
}

export interface PlatformChoice {
  platform: string;
  channel: string;
  mode: string;
}

export interface BatchForm {
  name: string;
  prompts: string;
  choices: PlatformChoice[];
  screenshot: number;
  regionCode: string;
  monitorKeywords: string;
  callbackUrl: string;
}

export function batchBody(form: BatchForm): Record<string, unknown> {
  return {
    ...(form.name.trim() ? { name: form.name.trim() } : {}),
    prompts: parsePrompts(form.prompts),
    platforms: form.choices.map((c) => ({ ...c, screenshot: form.screenshot })),
    ...(form.regionCode ? { regionCode: [form.regionCode] } : {}),
    ...(form.monitorKeywords.trim() ? { monitorKeywords: form.monitorKeywords.trim() } : {}),
    ...(form.callbackUrl.trim() ? { callbackUrl: form.callbackUrl.trim() } : {}),
  };
}

export type FormField =
  'name' | 'prompts' | 'platforms' | 'regionCode' | 'monitorKeywords' | 'callbackUrl' | 'form';

/** `platforms[2].mode` → platforms; anything the form has no field for → form. */
export function errorsByField(errors: FieldProblem[]): Partial<Record<FormField, string[]>> {
  const out: Partial<Record<FormField, string[]>> = {};
  for (const e of errors) {
    const head = /^[A-Za-z]+/.exec(e.field)?.[0] ?? '';
    const field: FormField = (
      ['name', 'prompts', 'platforms', 'regionCode', 'monitorKeywords', 'callbackUrl'] as const
    ).includes(head as never)
      ? (head as FormField)
      : 'form';
    // The message alone under the field it names; with its path otherwise (`platforms[2].mode`).
    const text = e.field && e.field !== field ? `${e.field}: ${e.message}` : e.message;
    (out[field] ??= []).push(text);
  }
  return out;
}

/** Whether live crawler nodes run the channel: null while no node is up (unknown). */
export function channelAvailable(p: PlatformInfo, channel: string): boolean | null {
  return p.availableChannels === null ? null : p.availableChannels.includes(channel);
}
