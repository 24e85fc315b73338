import type { ReactNode } from 'react';
import { Icon, toast } from '../../../../web/src/index.ts';
import '../accounts.css';

/**
 * The card shared by the sign-in/sign-up page and the password recovery pages: the brand mark,
 * the page's title (its one h1) and intro, then the page's forms and links.
 */
export function AuthCard({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <section className="section acc-auth">
      <div className="acc-auth__card box">
        <div className="acc-auth__head">
          <span className="acc-brand__mark" aria-hidden="true">
            <Icon name="museum" size={22} />
          </span>
          <h1 className="title is-4">{title}</h1>
          <p className="has-text-grey">{intro}</p>
        </div>
        {children}
      </div>
    </section>
  );
}

/**
 * A form's submit for these pages: on failure a toast titled `failedTitle` with the server's
 * message, and the error goes on to the form (SchemaForm shows field errors and stays usable).
 */
export async function submitOrToast<T>(failedTitle: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    toast({ title: failedTitle, description: (e as Error).message, variant: 'destructive' });
    throw e;
  }
}
