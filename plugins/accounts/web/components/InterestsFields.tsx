/**
 * The interests and home city fields (issue 21), shared by onboarding (/welcome) and Settings →
 * Interests. Interests are the museum categories the server offers (`choices`, labelled through
 * the museums plugin's locale); the home is a typed city (geocoded on the server) or the browser's
 * position.
 */
import { useState } from 'react';
import { useTranslation } from '../../../../web/src/index.ts';
import { updateOnboarding, type Onboarding } from '../../../../web/src/api/generated/accounts.ts';

export function InterestsPicker({ choices, value, onChange, legend }: { choices: Onboarding['choices']; value: string[]; onChange: (v: string[]) => void; legend: string }) {
  const { t } = useTranslation(['accounts', 'museums']);
  const toggle = (key: string) => onChange(value.includes(key) ? value.filter((k) => k !== key) : [...value, key]);
  return (
    <fieldset className="acc-interests">
      <legend className="label">{legend}</legend>
      <div className="acc-interests-grid">
        {choices.map((c) => {
          const id = `acc-interest-${c.key.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
          const on = value.includes(c.key);
          return (
            <label key={c.key} htmlFor={id} className={`acc-interest${on ? ' is-selected' : ''}`}>
              <input id={id} type="checkbox" checked={on} onChange={() => toggle(c.key)} />
              <span>{t(c.labelKey, { defaultValue: c.label })}</span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** A typed city (saved on "Save city") or "Use my location"; answers the saved Onboarding. */
export function HomeField({ home, onSaved, idPrefix }: { home: Onboarding['home']; onSaved: (o: Onboarding) => void; idPrefix: string }) {
  const { t } = useTranslation('accounts');
  const [city, setCity] = useState(home?.city ?? '');
  const [busy, setBusy] = useState<null | 'city' | 'locate' | 'clear'>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (what: 'city' | 'locate' | 'clear', body: () => Promise<Parameters<typeof updateOnboarding>[0]['body']>) => {
    setBusy(what);
    setError(null);
    try {
      onSaved(await updateOnboarding({ body: await body() }));
    } catch (e) {
      setError((e as Error)?.message || t('onboarding.homeFailed'));
    } finally {
      setBusy(null);
    }
  };
  const saveCity = () => run('city', async () => ({ homeCity: city.trim() || null }));
  const locate = () =>
    run('locate', () => {
      if (!navigator.geolocation) return Promise.reject(new Error(t('onboarding.noGeolocation')));
      return new Promise((resolve, reject) =>
        navigator.geolocation.getCurrentPosition(
          (p) => resolve({ location: { latitude: p.coords.latitude, longitude: p.coords.longitude } }),
          () => reject(new Error(t('onboarding.locationDenied'))),
          { timeout: 15000, maximumAge: 600000 },
        ),
      );
    });
  const inputId = `${idPrefix}-city`;
  const errId = `${idPrefix}-city-error`;
  return (
    <div className="acc-home">
      <div className="field">
        <label className="label" htmlFor={inputId}>
          {t('onboarding.cityLabel')}
        </label>
        <div className="field has-addons acc-home-row">
          <div className="control is-expanded">
            <input
              id={inputId}
              className={`input${error ? ' is-danger' : ''}`}
              type="text"
              autoComplete="address-level2"
              maxLength={200}
              value={city}
              placeholder={t('onboarding.cityPlaceholder')}
              onChange={(e) => setCity(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  void saveCity();
                }
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errId : undefined}
            />
          </div>
          <div className="control">
            <button type="button" className={`button is-link${busy === 'city' ? ' is-loading' : ''}`} onClick={() => void saveCity()} disabled={busy !== null || !city.trim()}>
              {t('onboarding.saveCity')}
            </button>
          </div>
        </div>
      </div>
      <div className="buttons">
        <button type="button" className={`button is-small${busy === 'locate' ? ' is-loading' : ''}`} onClick={() => void locate()} disabled={busy !== null}>
          {t('onboarding.useLocation')}
        </button>
        {home && (
          <button type="button" className={`button is-small is-ghost${busy === 'clear' ? ' is-loading' : ''}`} onClick={() => void run('clear', async () => ({ homeCity: null }))} disabled={busy !== null}>
            {t('onboarding.clearHome')}
          </button>
        )}
      </div>
      {error && (
        <p className="help is-danger" id={errId} role="alert">
          {error}
        </p>
      )}
      <p className="is-size-7" role="status" data-testid={`${idPrefix}-home-status`}>
        {home ? (home.city ? t('onboarding.homeIs', { city: home.city }) : t('onboarding.homeIsLocation')) : t('onboarding.noHome')}
      </p>
    </div>
  );
}
