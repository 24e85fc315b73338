import { useState } from 'react';
import { ApiError, EmptyState, Icon, Modal, ResponsiveImage, Spinner, storedSrcsets, toast, useApi, useTranslation } from '../../../../web/src/index.ts';
import { deleteMeetupPhoto, deleteMuseumEventPhoto } from '../../../../web/src/api/generated/events.ts';
import { apiBase, displayName, type EventItem, type Photo } from '../lib.ts';
import { UploadPhotoDialog } from './UploadPhotoDialog.tsx';

/** The photos of an event: a grid, a larger view, Upload Photo for participants, delete for uploader / organizer. */
export function Photos({ event: e, onCountChange }: { event: EventItem; onCountChange?: () => void }) {
  const { t } = useTranslation('events');
  const { data, error, isLoading, mutate } = useApi<Photo[]>(`${apiBase(e)}/photos`);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [viewing, setViewing] = useState<Photo | null>(null);

  const remove = async (p: Photo) => {
    try {
      if (e.kind === 'meetup') await deleteMeetupPhoto({ params: { meetupId: e.id, photoId: p.id } });
      else await deleteMuseumEventPhoto({ params: { id: e.id, photoId: p.id } });
      setViewing(null);
      await mutate();
      onCountChange?.();
      toast({ title: t('toast.photoDeleted'), variant: 'success', duration: 2000 });
    } catch (err) {
      toast({ title: t('toast.photoDeleteFailed'), description: err instanceof ApiError ? err.message : undefined, variant: 'error' });
    }
  };

  return (
    <div className="ev-photos">
      <div className="ev-section-head">
        {e.canUploadPhotos && (
          <button type="button" className="button is-small is-primary is-outlined" onClick={() => setUploadOpen(true)}>
            <Icon name="camera" size={16} />
            <span>{t('upload.open')}</span>
          </button>
        )}
      </div>
      {!e.allowPhotoSharing && <p className="has-text-grey is-size-7">{t('detail.photoSharingOff')}</p>}
      {e.allowPhotoSharing && e.restricted && <p className="has-text-grey is-size-7">{t('upload.restricted')}</p>}
      {isLoading && <Spinner size="small" />}
      {error && <EmptyState compact tone="error" title={error.message} />}
      {data && data.length === 0 && <EmptyState compact icon="image" title={t('detail.noPhotos')} />}
      {data && data.length > 0 && (
        <ul className="ev-photo-grid" data-testid="photo-grid">
          {data.map((p) => (
            <li key={p.id}>
              <button type="button" className="ev-photo" onClick={() => setViewing(p)} aria-label={p.caption || t('detail.viewPhoto')}>
                <ResponsiveImage
                  src={p.thumbnailUrl ?? p.url}
                  srcset={storedSrcsets(p.url, p.width)}
                  sizes="(min-width: 768px) 220px, 33vw"
                  width={p.width}
                  height={p.height}
                  cover
                  alt={p.caption || t('detail.photoBy', { name: displayName(p.user) })}
                />
              </button>
            </li>
          ))}
        </ul>
      )}
      <Modal open={!!viewing} onClose={() => setViewing(null)} title={viewing?.caption || t('detail.photos')} size="large">
        {viewing && (
          <figure className="ev-photo-view">
            <ResponsiveImage
              src={viewing.url}
              srcset={storedSrcsets(viewing.url, viewing.width)}
              sizes="(min-width: 1024px) 960px, 100vw"
              width={viewing.width}
              height={viewing.height}
              loading="eager"
              alt={viewing.caption || t('detail.photoBy', { name: displayName(viewing.user) })}
            />
            <figcaption className="ev-photo-view__caption">
              <span>{t('detail.photoBy', { name: displayName(viewing.user) })}</span>
              {viewing.canDelete && (
                <button type="button" className="button is-small is-danger is-light" onClick={() => remove(viewing)}>
                  <Icon name="trash" size={14} />
                  <span>{t('detail.deletePhoto')}</span>
                </button>
              )}
            </figcaption>
          </figure>
        )}
      </Modal>
      <UploadPhotoDialog
        open={uploadOpen}
        event={e}
        onClose={() => setUploadOpen(false)}
        onUploaded={async () => {
          await mutate();
          onCountChange?.();
        }}
      />
    </div>
  );
}
