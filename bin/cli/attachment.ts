/** The file name a download suggests (pure). */
import { basename } from 'node:path';

/**
 * `attachment; filename="<taskId>.csv"` → `<taskId>.csv`. Only the last path
 * segment is kept, so a server cannot make the CLI write outside the
 * current directory.
 */
export function attachmentName(header: string | null, fallback: string): string {
  const m = /filename="([^"]+)"|filename=([^;\s]+)/i.exec(header ?? '');
  const name = basename(m?.[1] ?? m?.[2] ?? '');
  return name === '' || name === '.' || name === '..' ? fallback : name;
}
