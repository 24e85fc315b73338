import { useEffect, useState } from 'react';
import { toast, useTranslation } from '../../../../web/src/index.ts';
import { addPushSubscription, getPushKey, removePushSubscription } from '../../../../web/src/api/generated/notifications.ts';

type State = 'loading' | 'unsupported' | 'denied' | 'off' | 'on';

const supported = () => typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

async function registration(): Promise<ServiceWorkerRegistration> {
  return (await navigator.serviceWorker.getRegistration('/')) ?? navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

function keyBytes(base64url: string): Uint8Array {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(b64);
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Settings → Notifications: "Enable on this device" (web push for this browser). */
export default function PushDevice() {
  const { t } = useTranslation('notifications');
  const [state, setState] = useState<State>('loading');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!supported()) return setState('unsupported');
    if (Notification.permission === 'denied') return setState('denied');
    navigator.serviceWorker
      .getRegistration('/')
      .then(async (reg) => setState((await reg?.pushManager.getSubscription()) ? 'on' : 'off'))
      .catch(() => setState('off'));
  }, []);

  const enable = async () => {
    setBusy(true);
    try {
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') {
        setState(permission === 'denied' ? 'denied' : 'off');
        return;
      }
      const reg = await registration();
      await navigator.serviceWorker.ready;
      const { publicKey } = await getPushKey();
      const sub = (await reg.pushManager.getSubscription()) ?? (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) as BufferSource }));
      const json = sub.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
      await addPushSubscription({ body: { endpoint: json.endpoint, keys: json.keys } });
      setState('on');
      toast({ title: t('push.enabled'), variant: 'success' });
    } catch (e) {
      toast({ title: t('push.failed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const disable = async () => {
    setBusy(true);
    try {
      const reg = await navigator.serviceWorker.getRegistration('/');
      const sub = await reg?.pushManager.getSubscription();
      if (sub) {
        await removePushSubscription({ body: { endpoint: sub.endpoint } }).catch(() => null);
        await sub.unsubscribe();
      }
      setState('off');
      toast({ title: t('push.disabled'), variant: 'success' });
    } catch (e) {
      toast({ title: t('push.failed'), description: (e as Error).message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="field mt-4" id="notif-push-device">
      <p className="label mb-1">{t('push.title')}</p>
      {state === 'loading' && <p className="help">{t('push.checking')}</p>}
      {state === 'unsupported' && <p className="help">{t('push.unsupported')}</p>}
      {state === 'denied' && <p className="help">{t('push.denied')}</p>}
      {(state === 'off' || state === 'on') && (
        <div className="is-flex is-align-items-center is-flex-wrap-wrap" style={{ gap: '0.5rem' }}>
          <span className="help mt-0">{state === 'on' ? t('push.onHere') : t('push.offHere')}</span>
          <button type="button" className={`button is-small${state === 'off' ? ' is-link' : ''}${busy ? ' is-loading' : ''}`} onClick={state === 'on' ? disable : enable} disabled={busy}>
            {state === 'on' ? t('push.disable') : t('push.enable')}
          </button>
        </div>
      )}
    </div>
  );
}
