/**
 * What ran, by the stream's own witness: thoughts in the last snapshot mean
 * thinking ran, sources mean Google Search grounded the answer (the app may
 * also ground on its own; the stream tells what happened). The request's
 * model sits in a header (`x-goog-ext-525001261-jspb`), not in the body the
 * kit sees, so the stream alone confirms the controls the kit set. Pure.
 */
import type { Mode } from '../../../../services/shared/platforms.js';
import { modeOf } from '../../common/ran-mode.js';

export function effectiveMode(ran: { thinking: boolean; search: boolean }): Mode {
  return modeOf(ran.thinking, ran.search);
}
