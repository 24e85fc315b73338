import { lazy, Suspense, useState } from "react";
import {
  useTranslation,
  useAuth,
  ResponsiveImage,
} from "../../../../web/src/index.ts";
import type { InsightPhoto } from "../../../../web/src/api/generated/insights.ts";
import { photoAlt } from "./photo-alt.ts";

// the viewer loads when a photo is opened
const PhotoLightbox = lazy(() =>
  import("./PhotoLightbox.tsx").then((m) => ({ default: m.PhotoLightbox })),
);

export interface PhotoMediaProps {
  photos: InsightPhoto[];
  postId: number;
  authorId: number;
  sensitive?: boolean;
  author: string;
  /** the first image on the page: fetched early, not lazily */
  priority?: boolean;
}

/**
 * A photo insight in a card: its first photo (focal point as the crop's centre, "+N" when there are
 * more), blurred behind a "sensitive" notice until tapped; opens the lightbox.
 */
export function PhotoMedia({
  photos: initial,
  postId,
  authorId,
  sensitive = false,
  author,
  priority,
}: PhotoMediaProps) {
  const { t } = useTranslation("insights");
  const { user } = useAuth();
  const [photos, setPhotos] = useState(initial);
  const [revealed, setRevealed] = useState(!sensitive);
  const [open, setOpen] = useState<number | null>(null);
  const first = photos[0];
  if (!first) return null;
  const more = photos.length - 1;
  // the card keeps the first photo's ratio, clamped between 4:5 portrait and 16:9 landscape
  const ratio = Math.min(16 / 9, Math.max(4 / 5, first.width / first.height));
  return (
    <div className="card-image insights-media insights-photo-media">
      <button
        type="button"
        className="insights-photo-open"
        onClick={() => (revealed ? setOpen(0) : setRevealed(true))}
        aria-label={
          revealed
            ? t("photos.open", { count: photos.length })
            : t("photos.reveal")
        }
        style={{ aspectRatio: String(ratio) }}
      >
        <ResponsiveImage
          src={first.url}
          width={first.width}
          height={first.height}
          alt={revealed ? photoAlt(t, first, 0, photos.length, author) : ""}
          srcset={first.srcset}
          sizes="(min-width: 769px) 600px, 100vw"
          blurhash={first.blurhash}
          focalPoint={first.focalPoint}
          cover
          priority={priority}
          className={`insights-photo-first${revealed ? "" : " is-blurred"}`}
        />
        {!revealed && (
          <span
            className="insights-photo-sensitive"
            data-testid="sensitive-notice"
          >
            <strong>{t("photos.sensitive")}</strong>
            <span>{t("photos.tapToShow")}</span>
          </span>
        )}
        {revealed && more > 0 && (
          <span className="insights-photo-more" aria-hidden="true">
            +{more}
          </span>
        )}
      </button>
      {open !== null && (
        <Suspense fallback={null}>
          <PhotoLightbox
            photos={photos}
            start={open}
            author={author}
            onClose={() => setOpen(null)}
            postId={postId}
            editable={user?.id === authorId}
            onPhotoChange={(p) =>
              setPhotos((xs) => xs.map((x) => (x.id === p.id ? p : x)))
            }
          />
        </Suspense>
      )}
    </div>
  );
}
