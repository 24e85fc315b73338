/// <reference types="google.maps" />
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { APILoadingStatus, APIProvider, Map, Marker, useApiLoadingStatus, useMap } from '@vis.gl/react-google-maps';
import { Icon, Spinner, useTranslation } from '../../../../web/src/index.ts';
import { museumPath, type MuseumView } from '../lib.ts';

export const DEFAULT_ZOOM = 12;
export const MAX_FIT_ZOOM = 15;

export type MapState = 'loading' | 'loaded' | 'failed';

interface Props {
  museums: MuseumView[];
  center: { lat: number; lng: number };
  onStateChange?: (s: MapState) => void;
  /** the server setup hint (maps key) is for admins; others read that the map is unavailable */
  showConfigHint?: boolean;
}

function Failed({ kind, showConfigHint }: { kind: 'network' | 'config'; showConfigHint?: boolean }) {
  const { t } = useTranslation('museums');
  return (
    <div className="mz-map mz-map--failed" role="alert" data-map-state="failed">
      <Icon name="alert" size={28} />
      {kind === 'network' ? (
        <p>{t('map.failedLoad')}</p>
      ) : !showConfigHint ? (
        <p>{t('map.unavailable')}</p>
      ) : (
        <>
          <p className="has-text-weight-semibold">{t('map.failedInit')}</p>
          <p className="help">{t('map.configHint')}</p>
        </>
      )}
    </div>
  );
}

function LoadingLabel() {
  const { t } = useTranslation('museums');
  return <Spinner label={t('map.loading')} showLabel />;
}

/** Fits the map to the markers (zoom capped at 15) and reports the loader's state. */
function Inner(props: Props) {
  const { museums, center, onStateChange } = props;
  const status = useApiLoadingStatus();
  const map = useMap();
  const navigate = useNavigate();
  const points = useMemo(() => museums.filter((m) => m.latitude != null && m.longitude != null), [museums]);
  useEffect(() => {
    if (status === APILoadingStatus.LOADED) onStateChange?.('loaded');
    else if (status === APILoadingStatus.FAILED || status === APILoadingStatus.AUTH_FAILURE) onStateChange?.('failed');
  }, [status, onStateChange]);
  useEffect(() => {
    if (!map || !points.length || typeof google === 'undefined') return;
    const bounds = new google.maps.LatLngBounds();
    for (const p of points) bounds.extend({ lat: p.latitude!, lng: p.longitude! });
    map.fitBounds(bounds, 48);
    const once = google.maps.event.addListenerOnce(map, 'idle', () => {
      if ((map.getZoom() ?? DEFAULT_ZOOM) > MAX_FIT_ZOOM) map.setZoom(MAX_FIT_ZOOM);
    });
    return () => google.maps.event.removeListener(once);
  }, [map, points]);
  if (status === APILoadingStatus.FAILED) return <Failed kind="network" />;
  if (status === APILoadingStatus.AUTH_FAILURE) return <Failed kind="config" showConfigHint={props.showConfigHint} />;
  if (status !== APILoadingStatus.LOADED) {
    return (
      <div className="mz-map mz-map--loading" data-map-state="loading" aria-busy="true">
        <LoadingLabel />
      </div>
    );
  }
  return (
    <Map className="mz-map" data-map-state="loaded" defaultCenter={center} defaultZoom={DEFAULT_ZOOM} gestureHandling="cooperative" disableDefaultUI={false} clickableIcons={false}>
      {points.map((m) => (
        <Marker key={m.id} position={{ lat: m.latitude!, lng: m.longitude! }} title={m.name} onClick={() => navigate(museumPath(m))} />
      ))}
    </Map>
  );
}

/**
 * The Discover map (@vis.gl/react-google-maps), loaded only when shown. States: loading,
 * loaded, failed — failed with the spec's texts: no key configured on the server ("Failed to
 * initialize Google Maps" and a configuration hint), or the script could not load ("Failed to
 * load Google Maps. Please check your connection and try again.").
 */
export default function MuseumMap(props: Props) {
  const { t, i18n } = useTranslation('museums');
  const [key, setKey] = useState<{ state: 'loading' } | { state: 'ready'; apiKey: string } | { state: 'failed'; kind: 'network' | 'config' }>({ state: 'loading' });
  const { onStateChange } = props;
  useEffect(() => {
    let alive = true;
    fetch('/api/google-maps-config', { credentials: 'include', headers: { Accept: 'application/json' } })
      .then(async (r) => {
        if (!alive) return;
        if (r.ok) {
          const body = (await r.json()) as { apiKey?: string };
          if (body.apiKey) return setKey({ state: 'ready', apiKey: body.apiKey });
        }
        setKey({ state: 'failed', kind: r.status === 503 || r.ok ? 'config' : 'network' });
      })
      .catch(() => alive && setKey({ state: 'failed', kind: 'network' }));
    return () => {
      alive = false;
    };
  }, []);
  useEffect(() => {
    if (key.state === 'failed') onStateChange?.('failed');
    else if (key.state === 'loading') onStateChange?.('loading');
  }, [key.state, onStateChange]);

  if (key.state === 'loading') {
    return (
      <div className="mz-map mz-map--loading" data-map-state="loading" aria-busy="true">
        <Spinner label={t('map.loading')} showLabel />
      </div>
    );
  }
  if (key.state === 'failed') return <Failed kind={key.kind} showConfigHint={props.showConfigHint} />;
  return (
    <div className="mz-map-host" data-map-state="provider" aria-label={t('map.label')} role="region">
      <APIProvider apiKey={key.apiKey} language={i18n.language} libraries={['places']} onError={() => onStateChange?.('failed')}>
        <Inner {...props} />
      </APIProvider>
    </div>
  );
}
