/** The new batch form's pure parts: prompts from pasted text, the request body, errors by field. */
import type { ChannelVerdict, FieldProblem } from './types.js';

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

/** The UI texts a verdict reads as (i18n.ts, not imported: it loads the DOM's types). */
type VerdictKey =
  | 'available'
  | 'unavailable'
  | 'unknownAvailability'
  | 'missingNode'
  | 'missingNodeIn'
  | 'missingAccount'
  | 'missingAccountIn';

/**
 * What the picker says of a channel: the service's verdict (GET /platforms,
 * asked for the form's region), with what is missing in the UI's language.
 */
export function verdictText(
  v: ChannelVerdict | undefined,
  regionCode: string,
  t: (key: VerdictKey, vars?: { region: string }) => string,
): { state: string; missing: string | null } {
  if (!v || v.available === null) return { state: t('unknownAvailability'), missing: null };
  if (v.available) return { state: t('available'), missing: null };
  const text = (m: ChannelVerdict['missing'][number]) =>
    regionCode
      ? t(m === 'node' ? 'missingNodeIn' : 'missingAccountIn', { region: regionCode })
      : t(m === 'node' ? 'missingNode' : 'missingAccount');
  return { state: t('unavailable'), missing: v.missing.map(text).join('; ') };
}
