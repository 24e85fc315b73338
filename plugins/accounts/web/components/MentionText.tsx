import { Fragment } from 'react';
import { Link } from 'react-router-dom';
import '../accounts.css';
import type { Mention } from '../../../../web/src/api/generated/shared.ts';

/**
 * Text with its stored mentions as profile links (the server resolved them when the text was
 * written: AccountsApi.resolveMentions; nothing is parsed here). Used by every plugin whose texts
 * carry mentions (insights, communities, groups). A range that no longer fits the text is shown as plain text.
 */
export function MentionText({ text, mentions }: { text: string; mentions?: Mention[] | null }) {
  const list = [...(mentions ?? [])].sort((a, b) => a.start - b.start);
  if (!list.length) return <>{text}</>;
  const out: React.ReactNode[] = [];
  let at = 0;
  list.forEach((m, i) => {
    if (m.start < at || m.start + m.length > text.length || text[m.start] !== '@') return;
    if (m.start > at) out.push(<Fragment key={`t${i}`}>{text.slice(at, m.start)}</Fragment>);
    out.push(
      <Link key={`m${i}`} to={`/profile/${m.userId}`} className="acc-mention">
        {text.slice(m.start, m.start + m.length)}
      </Link>,
    );
    at = m.start + m.length;
  });
  if (at < text.length) out.push(<Fragment key="end">{text.slice(at)}</Fragment>);
  return <>{out}</>;
}
