/**
 * monitorKeywords is one string; DESIGN.md fixes how it splits: on , ， 、 ; ；
 * and newlines, trimmed, deduplicated case-insensitively (first spelling kept).
 */
export function parseKeywords(raw: string): string[] {
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const part of raw.split(/[,，、;；\r\n]+/)) {
    const keyword = part.trim();
    if (!keyword) continue;
    const key = keyword.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    keywords.push(keyword);
  }
  return keywords;
}
