import { useEffect, useId, useRef } from 'react';
import { useTranslation, Icon, toast, uploadWithProgress, type ApiError } from '../../../../web/src/index.ts';
import { uploadInsightPhotoUrl, type InsightPhotoUpload } from '../../../../web/src/api/generated/insights.ts';

export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
export const MAX_PHOTOS = 10;
const ACCEPT = 'image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif';

export interface PhotoItem {
  key: string;
  previewUrl: string;
  name: string;
  progress: number;
  status: 'uploading' | 'ready' | 'failed';
  uploaded?: InsightPhotoUpload;
  alt: string;
}

export interface PhotoComposerProps {
  items: PhotoItem[];
  onChange: (update: (items: PhotoItem[]) => PhotoItem[]) => void;
  sensitive: boolean;
  onSensitive: (v: boolean) => void;
  allowFeature: boolean;
  onAllowFeature: (v: boolean) => void;
  /** a museum is tagged: the consent to be featured makes sense */
  museumTagged: boolean;
}

let counter = 0;

/**
 * The Photo tab of Create Insight: 1–10 photos (each uploaded at once, with progress), an alt text
 * field under each, a "sensitive" switch and the consent to be featured by the tagged museum.
 */
export function PhotoComposer({ items, onChange, sensitive, onSensitive, allowFeature, onAllowFeature, museumTagged }: PhotoComposerProps) {
  const { t } = useTranslation('insights');
  const idp = useId();
  const input = useRef<HTMLInputElement>(null);
  const aborts = useRef(new Map<string, AbortController>());

  useEffect(
    () => () => {
      for (const a of aborts.current.values()) a.abort();
    },
    [],
  );

  const add = (files: FileList | null) => {
    if (!files?.length) return;
    const room = MAX_PHOTOS - items.length;
    const list = [...files];
    if (list.length > room) toast({ title: t('photos.tooManyTitle'), description: t('photos.tooMany', { max: MAX_PHOTOS }), variant: 'warning' });
    for (const file of list.slice(0, Math.max(0, room))) {
      if (file.size > MAX_PHOTO_BYTES) {
        toast({ title: t('create.tooLargeTitle'), description: t('photos.tooLarge', { name: file.name }), variant: 'error' });
        continue;
      }
      const key = `p${++counter}`;
      const previewUrl = URL.createObjectURL(file);
      onChange((xs) => [...xs, { key, previewUrl, name: file.name, progress: 0, status: 'uploading', alt: '' }]);
      const ctrl = new AbortController();
      aborts.current.set(key, ctrl);
      const form = new FormData();
      form.append('photo', file, file.name);
      uploadWithProgress<InsightPhotoUpload>(uploadInsightPhotoUrl(), form, (p) => onChange((xs) => xs.map((x) => (x.key === key ? { ...x, progress: p } : x))), { signal: ctrl.signal })
        .then((res) => onChange((xs) => xs.map((x) => (x.key === key ? { ...x, progress: 100, status: 'ready', uploaded: res } : x))))
        .catch((e: ApiError) => {
          if (ctrl.signal.aborted) return;
          toast({ title: t('create.uploadFailedTitle'), description: e.message, variant: 'error' });
          onChange((xs) => xs.filter((x) => x.key !== key));
          URL.revokeObjectURL(previewUrl);
        })
        .finally(() => aborts.current.delete(key));
    }
    if (input.current) input.current.value = '';
  };

  const remove = (key: string) => {
    aborts.current.get(key)?.abort();
    onChange((xs) => {
      const gone = xs.find((x) => x.key === key);
      if (gone) URL.revokeObjectURL(gone.previewUrl);
      return xs.filter((x) => x.key !== key);
    });
  };

  const move = (key: string, d: -1 | 1) =>
    onChange((xs) => {
      const i = xs.findIndex((x) => x.key === key);
      const j = i + d;
      if (i < 0 || j < 0 || j >= xs.length) return xs;
      const out = [...xs];
      [out[i], out[j]] = [out[j], out[i]];
      return out;
    });

  return (
    <div className="insights-photo-composer">
      <div className="field">
        <div className="file is-boxed is-fullwidth">
          <label className="file-label" htmlFor={`${idp}-files`}>
            <input
              ref={input}
              id={`${idp}-files`}
              className="file-input"
              type="file"
              accept={ACCEPT}
              multiple
              disabled={items.length >= MAX_PHOTOS}
              onChange={(e) => add(e.target.files)}
              data-testid="photo-input"
            />
            <span className="file-cta">
              <span className="file-icon">
                <Icon name="image" size={20} />
              </span>
              <span className="file-label">{t('photos.choose')}</span>
            </span>
          </label>
        </div>
        <p className="help">{t('photos.hint', { count: items.length, max: MAX_PHOTOS })}</p>
      </div>
      {items.length > 0 && (
        <ol className="insights-photo-list" aria-label={t('photos.selected')}>
          {items.map((x, i) => (
            <li key={x.key} className="insights-photo-item">
              <img src={x.previewUrl} alt="" className="insights-photo-thumb" width={72} height={72} />
              <div className="insights-photo-fields">
                <label className="label is-small" htmlFor={`${idp}-alt-${x.key}`}>
                  {t('photos.altLabel', { n: i + 1 })}
                </label>
                <textarea
                  id={`${idp}-alt-${x.key}`}
                  className="textarea is-small"
                  rows={2}
                  maxLength={1500}
                  value={x.alt}
                  placeholder={t('photos.altPlaceholder')}
                  onChange={(e) => {
                    const alt = e.target.value;
                    onChange((xs) => xs.map((y) => (y.key === x.key ? { ...y, alt } : y)));
                  }}
                  data-alt-for={i}
                />
                {x.status === 'uploading' && <progress className="progress is-small is-primary mt-1" value={x.progress} max={100} aria-label={t('create.uploading', { percent: x.progress })} />}
              </div>
              <div className="insights-photo-actions">
                <button type="button" className="button is-small is-white" onClick={() => move(x.key, -1)} disabled={i === 0} aria-label={t('photos.moveUp', { n: i + 1 })}>
                  <Icon name="chevron-left" size={16} />
                </button>
                <button type="button" className="button is-small is-white" onClick={() => move(x.key, 1)} disabled={i === items.length - 1} aria-label={t('photos.moveDown', { n: i + 1 })}>
                  <Icon name="chevron-right" size={16} />
                </button>
                <button type="button" className="button is-small is-white" onClick={() => remove(x.key)} aria-label={t('photos.remove', { n: i + 1 })}>
                  <Icon name="trash" size={16} />
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <div className="field">
        <label className="checkbox">
          <input type="checkbox" checked={sensitive} onChange={(e) => onSensitive(e.target.checked)} /> {t('photos.markSensitive')}
        </label>
      </div>
      {museumTagged && (
        <div className="field">
          <label className="checkbox">
            <input type="checkbox" checked={allowFeature} onChange={(e) => onAllowFeature(e.target.checked)} data-testid="allow-feature" /> {t('photos.allowFeature')}
          </label>
        </div>
      )}
    </div>
  );
}
