/**
 * Reads a PNG's pixels with Chromium itself (an image on a canvas), so tests
 * can look at screenshots without a PNG library.
 */
import type { Browser } from 'playwright';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PngPixels {
  width: number;
  height: number;
  /** How many pixels of the rectangle are within `tolerance` of the colour (each channel). */
  count(rect: Rect, rgb: [number, number, number], tolerance?: number): Promise<number>;
  close(): Promise<void>;
}

export async function pngPixels(browser: Browser, png: Buffer): Promise<PngPixels> {
  const page = await browser.newPage();
  const size = (await page.evaluate(
    `new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => {
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0);
        window.pixels = ctx;
        resolve({ width: img.width, height: img.height });
      };
      img.onerror = () => reject(new Error('not a PNG'));
      img.src = 'data:image/png;base64,${png.toString('base64')}';
    })`,
  )) as { width: number; height: number };
  return {
    ...size,
    count: async (rect, [r, g, b], tolerance = 24) =>
      (await page.evaluate(
        `(() => {
          const x = Math.max(0, Math.floor(${rect.x})), y = Math.max(0, Math.floor(${rect.y}));
          const w = Math.max(1, Math.ceil(${rect.width})), h = Math.max(1, Math.ceil(${rect.height}));
          const d = window.pixels.getImageData(x, y, w, h).data;
          let n = 0;
          for (let i = 0; i < d.length; i += 4)
            if (Math.abs(d[i] - ${r}) <= ${tolerance} && Math.abs(d[i + 1] - ${g}) <= ${tolerance} &&
                Math.abs(d[i + 2] - ${b}) <= ${tolerance}) n++;
          return n;
        })()`,
      )) as number,
    close: () => page.close(),
  };
}
