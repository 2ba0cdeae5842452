/**
 * Before each ask the kit brings every mode control the site has to the
 * state the job needs, off as well as on (a kept page still shows the last
 * sub task's choices, and a site that remembers them per account starts a
 * fresh page with them), then reads every one back: a control set later (a
 * model picker) may reset one set earlier, and a composer the new-chat
 * control re-rendered may have drawn them again. A control that disagrees
 * on the read-back is set once more; one that still disagrees is
 * `control_unchanged`. What the kit set is returned, so the stream can
 * confirm it (ran-mode.ts `notApplied`). The last control set is read back
 * only when an earlier one was found changed: setControl has just read it.
 * Every popup is closed again when this returns (setControl, readState's
 * callers).
 */
import type { Page } from 'playwright';
import type { Evidence } from '../platforms/types.js';
import { closePopup, readState, setControl, type Control, type Found } from './controls.js';

/** A control and the state the job needs it in. */
export type Wanted = readonly [Control, boolean];

/** Sets each control in order, then reads each back; returns the state each found control was left in, by label. */
export async function setModeControls(
  page: Page,
  wanted: readonly Wanted[],
  o: { evidence?: Evidence } = {},
): Promise<ReadonlyMap<string, boolean>> {
  const found: [Control, boolean, Found][] = [];
  for (const [c, on] of wanted) {
    const f = await setControl(page, c, on, o);
    if (f) found.push([c, on, f]);
  }
  // The last control found needs no read-back of its own: setControl has just read it in the
  // state asked, and nothing was set after it (behind a popup, reading it again would cost two
  // clicks: open, close). Once the read-back finds a control changed, the page has changed
  // since it was set, and the last one is read too.
  let changed = false;
  for (const [i, [c, on, f]] of found.entries()) {
    if (i === found.length - 1 && !changed) break;
    const now = await readState(page, c, f).catch(() => undefined);
    await closePopup(f.opener);
    if (now === on) continue;
    changed = true;
    o.evidence?.note(
      `${c.site} ${c.label} read back ${String(now)} after the controls were set: set again`,
    );
    await setControl(page, c, on, o);
  }
  const lines = found.map(([c, on]) => `${c.label} ${on ? 'on' : 'off'}`);
  o.evidence?.note(`mode controls set: ${lines.join(', ') || 'none on the page'}`);
  return new Map(found.map(([c, on]) => [c.label, on]));
}
