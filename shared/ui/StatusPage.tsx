/** The 404 page and the error page (docs/product.md §2): the message (or 'Error'), the status, and a way home. */
import { Link } from './link';
import { TEXT } from '../constants';

export function NotFoundPage() {
  return (
    <section className="status-page" aria-labelledby="status-title">
      <p className="status-page__code">404</p>
      <h1 id="status-title">{TEXT.notFound}</h1>
      <Link to="/">{TEXT.backHome}</Link>
    </section>
  );
}

export function ErrorPage({ status, message }: { status: number; message?: string }) {
  return (
    <section className="status-page" aria-labelledby="status-title">
      <p className="status-page__code">{status}</p>
      <h1 id="status-title">{message || TEXT.errorDefault}</h1>
      <a href="/">{TEXT.backHome}</a>
    </section>
  );
}
