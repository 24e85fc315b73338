/**
 * Facts that say how fresh they are (issue 20): a line per fact group ("Hours confirmed 3 days
 * ago by visitors") and, after a check-in today, one quick question about the oldest group.
 */
import { useState } from 'react';
import { formatRelative, toast, useApi, useMutation, useTranslation, type ApiError } from '../../../../web/src/index.ts';
import { answerMuseumFactQuestion } from '../../../../web/src/api/generated/museums.ts';
import type { Confirmation, FactGroup } from '../../shared/freshness.ts';
import type { MuseumView } from '../lib.ts';
import { changeFrom, emptyDraft, FactCorrectionFields, type CorrectionDraft } from './FactCorrectionFields.tsx';

export function FreshnessLine({ group, confirmation }: { group: FactGroup; confirmation: Confirmation | null | undefined }) {
  const { t, i18n } = useTranslation('museums');
  if (!confirmation) return <p className="help mz-fresh" data-fresh={group}>{t('fresh.never', { what: t(`fresh.groups.${group}`) })}</p>;
  return (
    <p className="help mz-fresh" data-fresh={group} data-source={confirmation.source}>
      {t('fresh.line', { what: t(`fresh.groups.${group}`), when: formatRelative(new Date(confirmation.confirmedAt), i18n.language || 'en'), who: t(`fresh.sources.${confirmation.source}`) })}
    </p>
  );
}

export function FactQuestion({ museum, onAnswered }: { museum: MuseumView; onAnswered: () => void }) {
  const { t } = useTranslation('museums');
  const museumId = museum.id;
  const q = useApi<{ group: FactGroup | null }>(`/api/museums/${museumId}/fact-check`, { shouldRetryOnError: false });
  const [saying, setSaying] = useState<'ask' | 'correct'>('ask');
  const [correction, setCorrection] = useState('');
  const [draft, setDraft] = useState<CorrectionDraft>(() => emptyDraft(museum));
  const answer = useMutation(
    (agrees: boolean) =>
      answerMuseumFactQuestion({
        params: { id: museumId },
        body: { group: q.data!.group!, agrees, correction: agrees ? null : correction.trim() || null, change: agrees ? null : (changeFrom(q.data!.group!, draft) as never) },
      }),
    { retries: 0 },
  );
  const group = q.data?.group;
  if (!group) return null;
  const send = async (agrees: boolean) => {
    try {
      const r = await answer.trigger(agrees);
      toast({ title: t('fresh.thanks'), description: r.suggestionId ? t('fresh.thanksSuggestion') : agrees ? t('fresh.thanksYes') : t('fresh.thanksNo'), variant: 'success' });
      await q.mutate({ group: null }, { revalidate: false });
      onAnswered();
    } catch (e) {
      toast({ title: t('toasts.error'), description: (e as ApiError).message || t('toasts.actionFailed'), variant: 'destructive' });
    }
  };
  return (
    <section className="notification is-info is-light mz-factcheck" aria-labelledby="mz-factcheck-q" data-testid="fact-question" data-group={group}>
      <p id="mz-factcheck-q" className="has-text-weight-semibold">
        {t(`fresh.questions.${group}`)}
      </p>
      {saying === 'ask' ? (
        <div className="buttons mt-2">
          <button type="button" className="button is-success is-small" disabled={answer.isPending} onClick={() => void send(true)} data-answer="yes">
            {t('fresh.yes')}
          </button>
          <button type="button" className="button is-small" disabled={answer.isPending} onClick={() => setSaying('correct')} data-answer="no">
            {t('fresh.no')}
          </button>
        </div>
      ) : (
        <form
          className="mt-2"
          data-testid="fact-correction"
          onSubmit={(e) => {
            e.preventDefault();
            void send(false);
          }}
        >
          <FactCorrectionFields group={group} draft={draft} onChange={setDraft} />
          <label className="label is-small mt-2" htmlFor="mz-factcheck-correction">
            {t('fresh.correctionLabel')}
          </label>
          <textarea id="mz-factcheck-correction" className="textarea is-small" rows={2} maxLength={1000} value={correction} onChange={(e) => setCorrection(e.target.value)} />
          <div className="buttons mt-2">
            <button type="submit" className={`button is-primary is-small${answer.isPending ? ' is-loading' : ''}`} disabled={answer.isPending}>
              {t('fresh.sendCorrection')}
            </button>
            <button type="button" className="button is-small" onClick={() => setSaying('ask')}>
              {t('edit.cancel')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
