import { useEffect, useId, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation, Icon, ResponsiveImage, toast, toastApiError } from '../../../../web/src/index.ts';
import { updateInsightPhoto, type InsightPhoto } from '../../../../web/src/api/generated/insights.ts';
import { photoAlt } from './photo-alt.ts';

export { photoAlt };

export interface PhotoLightboxProps {
  photos: InsightPhoto[];
  start: number;
  /** who took them, for the fallback description of photos without alt text */
  author: string;
  onClose: () => void;
  /** the viewer wrote the insight: alt text can be added or edited here */
  postId?: number;
  editable?: boolean;
  onPhotoChange?: (p: InsightPhoto) => void;
}

/**
 * Full-screen viewer of a photo insight's photos: arrows and Escape on a keyboard, swipe on touch
 * screens, click (or Z) to zoom on desktop; the alt text is the image's alt and is shown as a
 * caption; focus stays inside and returns where it was on close.
 */
export function PhotoLightbox({ photos, start, author, onClose, postId, editable, onPhotoChange }: PhotoLightboxProps) {
  const { t } = useTranslation('insights');
  const [index, setIndex] = useState(start);
  const [zoom, setZoom] = useState<{ x: number; y: number } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const swipe = useRef<{ x: number; y: number; id: number } | null>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const total = photos.length;
  const go = (d: number) => {
    setZoom(null);
    setEditing(null);
    setIndex((i) => (i + d + total) % total);
  };

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    document.documentElement.classList.add('is-clipped');
    ref.current?.focus();
    return () => {
      document.documentElement.classList.remove('is-clipped');
      previous?.focus?.();
    };
  }, []);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const typing = (e.target as HTMLElement).tagName === 'TEXTAREA';
    if (typing && e.key !== 'Escape' && e.key !== 'Tab') return;
    if (e.key === 'Escape' && editing !== null) {
      e.stopPropagation();
      setEditing(null);
    } else if (e.key === 'Escape') {
      e.stopPropagation();
      onCloseRef.current();
    } else if (e.key === 'ArrowRight' && total > 1) {
      e.preventDefault();
      go(1);
    } else if (e.key === 'ArrowLeft' && total > 1) {
      e.preventDefault();
      go(-1);
    } else if (e.key === 'z' || e.key === 'Z') {
      setZoom((z) => (z ? null : { x: 50, y: 50 }));
    } else if (e.key === 'Tab') {
      const items = [...(ref.current?.querySelectorAll<HTMLElement>('button:not([disabled]), textarea') ?? [])];
      if (!items.length) return;
      const first = items[0];
      const last = items[items.length - 1];
      if (e.shiftKey && (document.activeElement === first || document.activeElement === ref.current)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first.focus();
      }
    }
  };

  const onPointerDown = (e: ReactPointerEvent) => {
    if (e.pointerType === 'mouse') return;
    swipe.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
  };
  const onPointerUp = (e: ReactPointerEvent) => {
    const s = swipe.current;
    swipe.current = null;
    if (!s || s.id !== e.pointerId || zoom) return;
    const dx = e.clientX - s.x;
    const dy = e.clientY - s.y;
    if (Math.abs(dx) > 40 && Math.abs(dx) > Math.abs(dy) * 1.5 && total > 1) go(dx < 0 ? 1 : -1);
    else if (dy > 80 && Math.abs(dy) > Math.abs(dx) * 1.5) onCloseRef.current();
  };
  const onImageClick = (e: React.MouseEvent<HTMLDivElement>) => {
    // zoom is for fine pointers (desktop); touch screens pinch natively
    if (!window.matchMedia?.('(pointer: fine)').matches) return;
    const r = e.currentTarget.getBoundingClientRect();
    setZoom((z) => (z ? null : { x: ((e.clientX - r.left) / r.width) * 100, y: ((e.clientY - r.top) / r.height) * 100 }));
  };

  const p = photos[index];
  const alt = photoAlt(t, p, index, total, author);
  return createPortal(
    <div
      ref={ref}
      className="insights-lightbox"
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      data-testid="photo-lightbox"
    >
      <h2 id={titleId} className="is-sr-only">
        {t('photos.viewerTitle', { name: author })}
      </h2>
      <div className="insights-lightbox-bar">
        <span aria-live="polite" className="insights-lightbox-count">
          {t('photos.counter', { n: index + 1, total })}
        </span>
        <button type="button" className="insights-lightbox-btn" onClick={() => setZoom((z) => (z ? null : { x: 50, y: 50 }))} aria-pressed={Boolean(zoom)} aria-label={zoom ? t('photos.zoomOut') : t('photos.zoomIn')}>
          <Icon name={zoom ? 'minus' : 'plus'} size={20} />
        </button>
        <button type="button" className="insights-lightbox-btn" onClick={() => onCloseRef.current()} aria-label={t('photos.close')}>
          <Icon name="x" size={22} />
        </button>
      </div>
      {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
      <div className={`insights-lightbox-stage${zoom ? ' is-zoomed' : ''}`} onClick={onImageClick}>
        <ResponsiveImage
          key={p.id}
          src={p.url}
          width={p.width}
          height={p.height}
          alt={alt}
          srcset={p.srcset}
          sizes="100vw"
          blurhash={p.blurhash}
          loading="eager"
          className="insights-lightbox-picture"
          style={zoom ? { transform: 'scale(2)', transformOrigin: `${zoom.x}% ${zoom.y}%` } : undefined}
        />
      </div>
      {total > 1 && (
        <>
          <button type="button" className="insights-lightbox-btn insights-lightbox-prev" onClick={() => go(-1)} aria-label={t('photos.previous')}>
            <Icon name="chevron-left" size={28} />
          </button>
          <button type="button" className="insights-lightbox-btn insights-lightbox-next" onClick={() => go(1)} aria-label={t('photos.next')}>
            <Icon name="chevron-right" size={28} />
          </button>
        </>
      )}
      {editing !== null ? (
        <div className="insights-lightbox-alt">
          <label className="label is-small has-text-white" htmlFor={`${titleId}-alt`}>
            {t('photos.altLabel', { n: index + 1 })}
          </label>
          <textarea id={`${titleId}-alt`} className="textarea is-small" rows={2} maxLength={1500} value={editing} onChange={(e) => setEditing(e.target.value)} autoFocus />
          <div className="buttons mt-2">
            <button
              type="button"
              className="button is-small is-primary"
              disabled={saving}
              onClick={async () => {
                if (!postId) return;
                setSaving(true);
                try {
                  const out = await updateInsightPhoto({ params: { id: postId, photoId: p.id }, body: { alt: editing } });
                  onPhotoChange?.(out);
                  setEditing(null);
                  toast({ title: t('photos.altSaved'), variant: 'success' });
                } catch (err) {
                  toastApiError(err);
                } finally {
                  setSaving(false);
                }
              }}
            >
              {t('photos.saveAlt')}
            </button>
            <button type="button" className="button is-small" onClick={() => setEditing(null)}>
              {t('create.cancel')}
            </button>
          </div>
        </div>
      ) : (
        (p.alt?.trim() || editable) && (
          <div className="insights-lightbox-alt">
            {p.alt?.trim() && <p aria-hidden="true">{p.alt}</p>}
            {editable && (
              <div className="buttons mt-1">
                <button type="button" className="button is-small is-light" onClick={() => setEditing(p.alt ?? '')}>
                  {t('photos.editAlt')}
                </button>
                {/* revoke consent: a museum featuring this photo stops at once (the server clears it) */}
                <button
                  type="button"
                  className="button is-small is-light"
                  disabled={saving}
                  data-testid="photo-revoke-feature"
                  onClick={async () => {
                    if (!postId) return;
                    setSaving(true);
                    try {
                      const out = await updateInsightPhoto({ params: { id: postId, photoId: p.id }, body: { allowFeature: false } });
                      onPhotoChange?.(out);
                      toast({ title: t('photos.featureRevoked'), variant: 'success' });
                    } catch (err) {
                      toastApiError(err);
                    } finally {
                      setSaving(false);
                    }
                  }}
                >
                  {t('photos.revokeFeature')}
                </button>
              </div>
            )}
          </div>
        )
      )}
    </div>,
    document.body,
  );
}
