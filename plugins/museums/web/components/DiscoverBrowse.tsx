/**
 * Discover's museum browser (issues 20 and 21 #2): category and filter chips (open now, free now,
 * accessibility facts), near me (the browser's position or a typed place geocoded on the server),
 * one result list with distances, sorting, and a map view when the server has a maps key. The
 * whole state lives in the URL query, so reload, back / forward and a shared link show the same.
 */
import { lazy, Suspense, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { apiRequest, EmptyState, hasRole, Icon, Pagination, Spinner, useApi, useAppConfig, useAuth, useTranslation, type ApiError } from '../../../../web/src/index.ts';
import { CATEGORIES } from '../../shared/catalog.ts';
import { ACCESS_FILTERS, DISCOVER_PAGE_SIZE as PAGE_SIZE, museumsQuery, RADIUS_CHOICES, radiusParam, readDiscoverState } from '../../shared/discover-query.ts';
import { distanceUnit, formatRadius } from '../../shared/distance.ts';
import { catKey, NEW_YORK, type MuseumView } from '../lib.ts';
import { MuseumCard } from './MuseumCard.tsx';
import { ChipRow } from './ChipRow.tsx';

const MuseumMap = lazy(() => import('./MuseumMap.tsx'));

type Patch = Record<string, string | null>;

/** Reads the state and changes the URL: each change is a history entry (back undoes it). */
export function useDiscoverState() {
  const [params, setParams] = useSearchParams();
  const state = readDiscoverState(params);
  const update = (patch: Patch, opts: { replace?: boolean } = {}) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    // a new filter starts again at the first page
    if (!('page' in patch)) next.delete('page');
    setParams(next, { replace: opts.replace ?? false });
  };
  return { state, update };
}

const round = (n: number) => String(Math.round(n * 10000) / 10000);

/** Category chips, filter chips and near me (only the categories beside text search results). */
export function DiscoverFilters({ categoriesOnly = false }: { categoriesOnly?: boolean }) {
  const { t } = useTranslation('museums');
  const { state, update } = useDiscoverState();
  const toggleAccess = (k: string) => {
    const list = state.access.includes(k) ? state.access.filter((x) => x !== k) : [...state.access, k];
    update({ access: list.join(',') || null });
  };
  return (
    <div className="mz-filters">
      <ChipRow label={t('discover.categoriesLabel')} testId="discover-categories">
        <button type="button" className={`mz-chip${!state.category ? ' is-active' : ''}`} aria-pressed={!state.category} onClick={() => update({ category: null })}>
          {t('discover.allCategories')}
        </button>
        {CATEGORIES.map((c) => (
          <button
            type="button"
            key={c}
            data-category={c}
            className={`mz-chip${state.category === c ? ' is-active' : ''}`}
            aria-pressed={state.category === c}
            onClick={() => update({ category: state.category === c ? null : c })}
          >
            {t(`categories.${catKey(c)}`)}
          </button>
        ))}
      </ChipRow>
      {!categoriesOnly && (
        <>
          <ChipRow label={t('discover.filtersLabel')} testId="discover-filters">
            <button type="button" className={`mz-chip${state.open ? ' is-active' : ''}`} aria-pressed={state.open} data-filter="open" onClick={() => update({ open: state.open ? null : 'now' })}>
              <Icon name="clock" size={14} /> {t('discover.openNow')}
            </button>
            <button type="button" className={`mz-chip${state.free ? ' is-active' : ''}`} aria-pressed={state.free} data-filter="free" onClick={() => update({ free: state.free ? null : 'now' })}>
              {t('admission.freeNow')}
            </button>
            {ACCESS_FILTERS.map((k) => (
              <button
                type="button"
                key={k}
                className={`mz-chip${state.access.includes(k) ? ' is-active' : ''}`}
                aria-pressed={state.access.includes(k)}
                data-filter={k}
                onClick={() => toggleAccess(k)}
              >
                {t(`access.filters.${k}`)}
              </button>
            ))}
          </ChipRow>
          <NearMe />
        </>
      )}
    </div>
  );
}

/** "Near me": the browser's position (Geolocation API) or a typed place, into ?near=lat,lng&place=… */
function NearMe() {
  const { t } = useTranslation('museums');
  const { state, update } = useDiscoverState();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState<'locating' | 'place' | null>(null);
  const [problem, setProblem] = useState('');

  const useMyLocation = () => {
    setProblem('');
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      setProblem(t('discover.near.unavailable'));
      return;
    }
    setBusy('locating');
    navigator.geolocation.getCurrentPosition(
      (p) => {
        setBusy(null);
        update({ near: `${round(p.coords.latitude)},${round(p.coords.longitude)}`, place: null, sort: null, radius: null });
      },
      (err) => {
        setBusy(null);
        // PERMISSION_DENIED (1): blocked for this site; else no fix in time or no position at all
        setProblem(err.code === 1 ? t('discover.near.denied') : t('discover.near.positionUnavailable'));
      },
      { timeout: 10000, maximumAge: 5 * 60 * 1000 },
    );
  };
  const lookUp = async (e: FormEvent) => {
    e.preventDefault();
    const place = text.trim();
    setProblem('');
    if (place.length < 2) {
      setProblem(t('discover.near.enterPlace'));
      return;
    }
    setBusy('place');
    try {
      const hit = await apiRequest<{ found: boolean; latitude?: number; longitude?: number }>('GET', `/api/geocode/place?q=${encodeURIComponent(place)}`);
      if (!hit.found || hit.latitude === undefined || hit.longitude === undefined) setProblem(t('discover.near.notFound', { place }));
      else {
        update({ near: `${round(hit.latitude)},${round(hit.longitude)}`, place, sort: null, radius: null });
        setText('');
      }
    } catch (err) {
      setProblem((err as ApiError).status === 429 ? t('discover.near.busy') : t('discover.near.failed'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="mz-near" data-testid="near-me">
      <div className="mz-near__row">
        {state.near ? (
          <span className="tag is-medium is-rounded mz-near__current" data-testid="near-current">
            <Icon name="map-pin" size={14} />
            <span>{state.place ? t('discover.near.nearPlace', { place: state.place }) : t('discover.near.nearYou')}</span>
            <button type="button" className="delete is-small" aria-label={t('discover.near.clear')} onClick={() => update({ near: null, place: null, sort: null, radius: null })} />
          </span>
        ) : null}
        {state.near ? (
          <RadiusSelect />
        ) : (
          <button type="button" className="button is-small is-rounded mz-near__me" data-filter="near" onClick={useMyLocation} disabled={busy !== null}>
            <Icon name="compass" size={14} />
            <span>{busy === 'locating' ? t('discover.near.locating') : t('discover.near.useMyLocation')}</span>
          </button>
        )}
        <form className="mz-near__form" onSubmit={lookUp} role="search" aria-label={t('discover.near.placeLabel')}>
          <label className="is-sr-only" htmlFor="mz-near-place">
            {t('discover.near.placeLabel')}
          </label>
          <div className="field has-addons">
            <div className="control is-expanded">
              <input
                id="mz-near-place"
                className="input is-small is-rounded"
                type="text"
                value={text}
                maxLength={120}
                placeholder={t('discover.near.placePlaceholder')}
                onChange={(e) => setText(e.target.value)}
              />
            </div>
            <div className="control">
              <button type="submit" className={`button is-small is-rounded${busy === 'place' ? ' is-loading' : ''}`} disabled={busy !== null}>
                {t('discover.near.go')}
              </button>
            </div>
          </div>
        </form>
      </div>
      <p className={`help${problem ? ' is-danger' : ''}`} role={problem ? 'alert' : undefined} data-testid="near-help">
        {problem || (!state.near ? t('discover.near.hint') : '\u00a0')}
      </p>
    </div>
  );
}

/**
 * "Within 10 km" around the near point: the choices in the viewer's unit (kilometres, miles where
 * the locale uses them); a shared link's radius in the other unit stays selected, shown as it is.
 */
function RadiusSelect() {
  const { t, i18n } = useTranslation('museums');
  const { state, update } = useDiscoverState();
  const unit = distanceUnit(i18n.language) === 'mile' ? 'mi' : 'km';
  const choices: Array<{ value: number; unit: 'km' | 'mi' }> = RADIUS_CHOICES.map((value) => ({ value, unit }));
  const current = state.radius ? radiusParam(state.radius) : '';
  if (state.radius && !choices.some((c) => radiusParam(c) === current)) choices.push(state.radius);
  return (
    <SmallSelect id="mz-radius" testId="radius" label={t('discover.radius.label')} value={current} onChange={(v) => update({ radius: v || null })}>
      <option value="">{t('discover.radius.any')}</option>
      {choices.map((c) => (
        <option key={radiusParam(c)} value={radiusParam(c)}>
          {t('discover.radius.within', { distance: formatRadius(c.value, c.unit, i18n.language) })}
        </option>
      ))}
    </SmallSelect>
  );
}

/** A small rounded select with a visually hidden label (the toolbar's sort, the radius). */
function SmallSelect({ id, testId, label, value, onChange, children }: { id: string; testId: string; label: string; value: string; onChange: (v: string) => void; children: ReactNode }) {
  return (
    <div className="field mb-0">
      <label className="is-sr-only" htmlFor={id}>
        {label}
      </label>
      <div className="control">
        <div className="select is-small is-rounded">
          <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
            {children}
          </select>
        </div>
      </div>
    </div>
  );
}

/** The results: a toolbar (count, sort, list / map) and one list of museums with their distance. */
export function DiscoverResults() {
  const { t } = useTranslation('museums');
  const { state, update } = useDiscoverState();
  const { googleMapsConfigured } = useAppConfig();
  const { user } = useAuth();
  const isAdmin = hasRole(user, ['Admin']);
  const res = useApi<{ items: MuseumView[]; total: number; page: number; pageSize: number }>(museumsQuery(state), { keepPreviousData: true });
  const items = res.data?.items ?? [];
  const total = res.data?.total ?? 0;
  // /map opens on the map (when the server has a key) unless the URL says otherwise
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const wanted = params.has('view') ? state.view : pathname.toLowerCase().startsWith('/map') ? 'map' : 'list';
  const view = googleMapsConfigured ? wanted : 'list';
  const filtering = !!state.category || state.open || state.free || state.access.length > 0 || !!state.radius;

  const title = state.near ? (state.place ? t('discover.nearestTo', { place: state.place }) : t('discover.nearestToYou')) : filtering ? t('discover.filtered') : t('discover.museums');

  return (
    <section className="mz-block mz-browse" aria-labelledby="mz-browse-title" data-testid="filtered" data-view={view}>
      <div className="mz-browse__head">
        <h2 className="title is-5 mb-0" id="mz-browse-title">
          {title}
        </h2>
        <div className="mz-browse__tools">
          <SmallSelect id="mz-sort" testId="sort" label={t('discover.sortLabel')} value={state.sort} onChange={(v) => update({ sort: v })}>
            <option value="distance" disabled={!state.near}>
              {state.near ? t('discover.sort.distance') : t('discover.sort.distanceNeedsPlace')}
            </option>
            <option value="open">{t('discover.sort.open')}</option>
            <option value="name">{t('discover.sort.name')}</option>
          </SmallSelect>
          {googleMapsConfigured && (
            <div className="buttons has-addons mb-0" role="group" aria-label={t('discover.viewLabel')} data-testid="view-toggle">
              <button
                type="button"
                className={`button is-small${view === 'list' ? ' is-selected is-link' : ''}`}
                aria-pressed={view === 'list'}
                onClick={() => update({ view: 'list', page: String(state.page) })}
              >
                <Icon name="menu" size={14} />
                <span>{t('discover.view.list')}</span>
              </button>
              <button
                type="button"
                className={`button is-small${view === 'map' ? ' is-selected is-link' : ''}`}
                aria-pressed={view === 'map'}
                onClick={() => update({ view: 'map', page: String(state.page) })}
              >
                <Icon name="map" size={14} />
                <span>{t('discover.view.map')}</span>
              </button>
            </div>
          )}
        </div>
      </div>
      {!googleMapsConfigured &&
        (isAdmin ? (
          <p className="notification is-warning is-light mz-map-hint" data-testid="maps-admin-hint">
            {t('map.adminHint')}
          </p>
        ) : (
          <p className="help mz-map-note" data-testid="maps-note">
            {t('map.listOnly')}
          </p>
        ))}
      <p className="help mb-3" aria-live="polite" data-testid="result-count">
        {res.data ? t('discover.count', { count: total }) : '\u00a0'}
      </p>
      {res.isLoading && !res.data ? (
        <Spinner center />
      ) : res.error ? (
        <EmptyState
          compact
          tone="error"
          title={t('discover.loadFailed')}
          action={
            <button type="button" className="button is-small" onClick={() => void res.mutate()}>
              {t('discover.retry')}
            </button>
          }
        />
      ) : view === 'map' ? (
        <Suspense
          fallback={
            <div className="mz-map mz-map--loading" data-map-state="loading">
              <Spinner label={t('map.loading')} showLabel />
            </div>
          }
        >
          {!items.length && <EmptyState compact icon="museum" title={filtering || state.near ? t('discover.noMatches') : t('discover.noMuseums')} />}
          <MuseumMap museums={items} center={state.near ?? firstPoint(items) ?? NEW_YORK} showConfigHint={isAdmin} />
        </Suspense>
      ) : !items.length ? (
        <EmptyState compact icon="museum" title={filtering || state.near ? t('discover.noMatches') : t('discover.noMuseums')} />
      ) : (
        <div className="mz-grid" data-testid="results" aria-busy={res.isValidating}>
          {items.map((m) => (
            <MuseumCard key={m.id} museum={m} />
          ))}
        </div>
      )}
      {res.data && view === 'list' && <Pagination page={state.page} pageSize={PAGE_SIZE} total={total} onChange={(p) => update({ page: String(p) })} className="mt-4" />}
    </section>
  );
}

function firstPoint(items: MuseumView[]) {
  const m = items.find((x) => x.latitude != null && x.longitude != null);
  return m ? { lat: m.latitude!, lng: m.longitude! } : null;
}
