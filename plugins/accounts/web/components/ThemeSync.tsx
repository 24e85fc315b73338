import { useEffect, useRef } from 'react';
import { isThemeChoice, mutate, readThemeChoice, setThemeChoice, useApi, useThemeChoice, type WebUser } from '../../../../web/src/index.ts';
import { getPreferencesUrl, updatePreferences, type GetPreferencesResponse } from '../../../../web/src/api/generated/accounts.ts';

/**
 * A member's theme follows them (slot shell.banner, renders nothing; issue 21): on load, the theme
 * stored with their preferences is applied when this browser has another one; afterwards, a choice
 * made here (Settings or the footer) is stored with their preferences.
 */
export default function ThemeSync({ user }: { user: WebUser }) {
  const { data } = useApi<GetPreferencesResponse>(getPreferencesUrl(), { revalidateOnFocus: false });
  const [choice] = useThemeChoice();
  const synced = useRef<number | null>(null);
  const stored = data?.theme;

  useEffect(() => {
    if (!isThemeChoice(stored) || synced.current === user.id) return;
    synced.current = user.id;
    if (stored !== readThemeChoice()) setThemeChoice(stored);
  }, [stored, user.id]);

  useEffect(() => {
    if (synced.current !== user.id || !isThemeChoice(stored)) return;
    const local = readThemeChoice();
    if (choice !== local || local === stored) return;
    updatePreferences({ body: { theme: local } })
      .then((p) => mutate(getPreferencesUrl(), p, { revalidate: false }))
      .catch(() => {
        /* kept in this browser; stored with the member's preferences next time */
      });
  }, [choice, stored, user.id]);
  return null;
}
