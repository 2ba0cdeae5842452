/** A screenshot that opens full size in an overlay; a click or Escape closes it. */
import { useLayoutEffect, useState } from 'preact/hooks';
import { useT } from '../i18n.js';

export function ZoomImage({ src, alt, testId }: { src: string; alt: string; testId: string }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  // A layout effect: Escape works from the moment the overlay shows.
  useLayoutEffect(() => {
    if (!open) return;
    const close = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    addEventListener('keydown', close);
    return () => removeEventListener('keydown', close);
  }, [open]);
  return (
    <>
      <button type="button" class="thumb" onClick={() => setOpen(true)} title={t('zoom')}>
        <img src={src} alt={alt} loading="lazy" data-testid={testId} />
      </button>
      {open && (
        <div
          class="overlay"
          role="dialog"
          aria-label={alt}
          onClick={() => setOpen(false)}
          data-testid="zoomed"
        >
          <img src={src} alt={alt} />
        </div>
      )}
    </>
  );
}
