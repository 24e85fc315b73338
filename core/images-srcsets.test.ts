/**
 * The srcsets pages build for stored images (web/src/components/ResponsiveImage.tsx): from what the
 * API says exists (infoSrcsets), else derived from the URL and the master's stored width
 * (storedSrcsets): never a width larger than the original (its variants job makes none), and the
 * standard widths up to 1280 when the width is unknown. A video poster is a frame fit inside
 * 1280 × 720: a portrait or small video's poster is narrower than 1280.
 */
import { expect } from 'chai';
import { infoSrcsets, storedSrcsets } from '../web/src/components/ResponsiveImage.tsx';
import { variantWidths } from './images.ts';

const widthsOf = (set: string | undefined) => (set ?? '').split(', ').map((s) => Number(/ (\d+)w$/.exec(s)?.[1]));

describe('core: srcsets of stored images (web ResponsiveImage)', () => {
  it('derives exactly the widths the variants job makes for a known original width', () => {
    for (const width of [160, 320, 405, 640, 1000, 1280, 1500, 2048, 3000]) {
      const s = storedSrcsets('/uploads/insights/posters/ab12.jpg', width)!;
      expect(widthsOf(s.jpg), `${width}`).to.deep.equal(variantWidths(width));
      expect(widthsOf(s.avif), `${width}`).to.deep.equal(variantWidths(width));
      for (const w of widthsOf(s.webp)) expect(w).to.be.at.most(width);
    }
    expect(storedSrcsets('/uploads/insights/posters/ab12.jpg', 405)!.webp).to.equal('/uploads/insights/posters/ab12_w320.webp 320w, /uploads/insights/posters/ab12_w405.webp 405w');
  });

  it('keeps the standard widths up to 1280 when the width is unknown; none for external images and thumbnails', () => {
    for (const unknown of [undefined, null, 0]) {
      expect(widthsOf(storedSrcsets('/uploads/insights/posters/ab12.jpg', unknown)!.jpg)).to.deep.equal([320, 640, 1280]);
    }
    expect(storedSrcsets('https://example.org/a.jpg', 640)).to.equal(null);
    expect(storedSrcsets('/uploads/a_thumb.jpg', 640)).to.equal(null);
    // a URL naming a variant: the widths up to it
    expect(widthsOf(storedSrcsets('/uploads/a_w640.jpg', 2000)!.jpg)).to.deep.equal([320, 640]);
  });

  it('uses what the API says (infoSrcsets) when it is known', () => {
    const s = infoSrcsets('/uploads/insights/posters/ab12.jpg', { width: 160, height: 120, widths: [160], blurhash: null })!;
    expect(s.jpg).to.equal('/uploads/insights/posters/ab12_w160.jpg 160w');
    expect(infoSrcsets('/uploads/insights/posters/ab12.jpg', { width: 160, height: 120, widths: [], blurhash: null })).to.equal(null);
  });
});
