/** A driver's WebContext on an opened page, built as the executor builds it (real CDP capture). */
import type { Page } from 'playwright';
import type { PlatformSettings, WebContext } from '../../crawler/platforms/types.js';
import { EvidenceLog } from '../../crawler/web/evidence-log.js';
import { startCapture } from '../../crawler/web/capture.js';

export async function webContext(
  page: Page,
  settings: PlatformSettings,
  evidence = new EvidenceLog(),
): Promise<WebContext> {
  return { settings, evidence, capture: await startCapture(page, evidence) };
}
