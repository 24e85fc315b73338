import type { InsightPhoto } from '../../../../web/src/api/generated/insights.ts';

/** The description of a photo for screen readers: its alt text, else a numbered fallback. */
export function photoAlt(t: (k: string, o?: any) => string, p: InsightPhoto, index: number, total: number, author: string): string {
  return p.alt?.trim() || t('photos.noAlt', { n: index + 1, total, name: author });
}
