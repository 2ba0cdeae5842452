/**
 * The task's brand keywords as one pattern for highlighting, pure. Like the
 * service's matcher (services/shared/brand/): case-insensitive, Latin keywords
 * as whole words (`Acme` in `Acme's` and `Acme公司`, not in `Acmetronics`), CJK
 * keywords as substrings, longer keywords first. The answer is matched as
 * shown, not NFKC-folded, so a full-width `ＡＣＭＥ` the service counts is not
 * highlighted.
 */
const WORD = '[A-Za-z0-9]';

export function keywordPattern(keywords: string[]): RegExp | null {
  const parts = keywords
    .map((k) => k.normalize('NFKC').trim())
    .filter((k) => k.length > 0)
    .sort((a, b) => b.length - a.length)
    .map((k) => {
      const escaped = k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const start = /^[A-Za-z0-9]/.test(k) ? `(?<!${WORD})` : '';
      const end = /[A-Za-z0-9]$/.test(k) ? `(?!${WORD})` : '';
      return `${start}${escaped}${end}`;
    });
  return parts.length ? new RegExp(parts.join('|'), 'giu') : null;
}
