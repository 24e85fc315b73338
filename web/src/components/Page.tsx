import { useEffect, type ReactNode } from 'react';
import { useAppConfig } from '../lib/app-config.tsx';

/** Sets document.title to "<title> · Curio" (or just the app name). */
export function useDocumentTitle(title?: string | null) {
  const { appName } = useAppConfig();
  useEffect(() => {
    document.title = title ? `${title} · ${appName}` : appName;
  }, [title, appName]);
}

export interface PageProps {
  /** the page heading (h1) and document title */
  title?: ReactNode;
  /** document title when `title` is not a string */
  documentTitle?: string;
  subtitle?: ReactNode;
  /** buttons on the right of the heading */
  actions?: ReactNode;
  children: ReactNode;
  /** 'narrow' for forms and settings, 'wide' for grids */
  width?: 'narrow' | 'normal' | 'wide' | 'full';
  className?: string;
}

/** The standard page frame: a section, a container, an optional heading row. */
export function Page({ title, documentTitle, subtitle, actions, children, width = 'normal', className }: PageProps) {
  useDocumentTitle(documentTitle ?? (typeof title === 'string' ? title : undefined));
  return (
    <section className={`section curio-page curio-page--${width} ${className ?? ''}`}>
      <div className="container">
        {(title || actions) && (
          <header className="curio-page__header">
            <div>
              {title && <h1 className="title is-3">{title}</h1>}
              {subtitle && <p className="subtitle is-6 has-text-grey">{subtitle}</p>}
            </div>
            {actions && <div className="curio-page__actions">{actions}</div>}
          </header>
        )}
        {children}
      </div>
    </section>
  );
}
