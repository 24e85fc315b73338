import { Fragment, useEffect } from 'react';
import { EmojiText, mutate, symbolOfEmoji, toast, useTranslation, type WebUser } from '../../../../web/src/index.ts';
import { takeEarnedBadges, type CelebratedBadge } from '../celebrate.ts';
import { BadgeIcon } from './BadgeIcon.tsx';

/** Stands for the badge's icon in the spec's text until it is drawn (a private-use character). */
const ICON_MARK = '\uE000';

const SEEN_KEY = 'curio.badges.celebrated';

function seenKeys(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(SEEN_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

function remember(keys: string[]) {
  try {
    const all = JSON.parse(sessionStorage.getItem(SEEN_KEY) ?? '[]') as string[];
    sessionStorage.setItem(SEEN_KEY, JSON.stringify([...new Set([...all, ...keys])].slice(-200)));
  } catch {
    // storage can be blocked: then a badge may be celebrated twice, no harm
  }
}

/** Takes the earned badges (caught by celebrate.ts, also before it loaded) and celebrates each one once. Renders nothing. */
export default function BadgeCelebrations({ user }: { user?: WebUser | null }) {
  const { t } = useTranslation('badges');
  useEffect(() => {
    if (!user) return;
    const onEarned = (list: CelebratedBadge[]) => {
      const seen = seenKeys();
      const fresh = list.filter((b) => b && typeof b.id === 'number' && !seen.has(`${user.id}:${b.id}`));
      if (!fresh.length) return;
      remember(fresh.map((b) => `${user.id}:${b.id}`));
      for (const b of fresh) {
        const icon = b.icon ?? '🏆';
        // the spec's texts carry emoji (the title's, the badge's icon): drawn as SVG where the set
        // has the symbol — the badge's icon on its coloured disc, as on the profile (BadgeIcon) —
        // so that they never show as empty boxes without a colour-emoji font; the words unchanged
        const drawn = symbolOfEmoji(icon) !== null;
        const text = t('celebrate.description', { icon: drawn ? ICON_MARK : icon, name: b.name, description: b.description ?? '', interpolation: { escapeValue: false } }).trim();
        toast({
          variant: 'success',
          title: <EmojiText text={t('celebrate.title')} size={18} />,
          description: text.split(ICON_MARK).map((part, i) => (
            <Fragment key={i}>
              {i > 0 && <BadgeIcon icon={icon} color={b.color ?? ''} size={22} />}
              <EmojiText text={part} />
            </Fragment>
          )),
          duration: 8000,
        });
      }
      // the profile strip, BADGES tab and progress show the new badge at once
      void mutate((key) => {
        const k = Array.isArray(key) ? String(key[0]) : String(key ?? '');
        return /^\/api\/user\/[^/]+\/badges/.test(k) || k.startsWith('/api/badges');
      });
      void mutate('/api/notifications/unread-count');
    };
    return takeEarnedBadges(onEarned);
  }, [user, t]);
  return null;
}
