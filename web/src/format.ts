/** Small pure formatting helpers shared by the pages. */

export const percent = (share: number): string => `${Math.round(share * 1000) / 10}%`;

export const when = (ms: number | null | undefined, lang: string): string =>
  ms ? new Date(ms).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB') : '—';

/** `sandbox-web · web · search`: a sub task's column name. */
export const platformLabel = (p: { platform: string; channel?: string | null; mode?: string }) =>
  [p.platform, p.channel, p.mode].filter(Boolean).join(' · ');

export const shortId = (id: string): string => id.slice(0, 8);

/** A date and time short enough for a chart's time axis: `24/11/2026, 09:00`. */
export const whenShort = (ms: number, lang: string): string =>
  new Date(ms).toLocaleString(lang === 'zh' ? 'zh-CN' : 'en-GB', {
    dateStyle: 'short',
    timeStyle: 'short',
  });
