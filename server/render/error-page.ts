/**
 * The error page of a render whose shell failed: the site's layout around the error page, rendered whole; if
 * even that cannot be had, a bare error document. Never kept by any cache (page-response.ts).
 */
import type { Response } from 'express';
import { TEXT } from '../../shared/constants';
import type { ContentApi } from '../../shared/content-api';
import { CallRecorder } from '../upstream/content-service';
import { bareErrorDocument } from './document';
import { addressOf } from '../../shared/page-address';
import { renderOptions, resourceLoads, stateFor, type DocumentRequest, type PageContext } from './page-context';
import { errorHeaders, setHeaders } from './page-response';
import { statusPage, unixNow } from './prepare-page';
import { renderDocument, type DocumentSink } from './render-document';

export async function sendErrorPage(context: PageContext, res: Response, request: DocumentRequest, content: ContentApi, status: number): Promise<void> {
  const { page } = request;
  // The layout comes from the home page's state; the page itself is the error page at the request's address.
  const home = { ...request, account: null, page: { ...page, address: addressOf('/', '') } };
  const base = await stateFor(context, home, content, new CallRecorder()).catch(() => null);
  const fallback = () => {
    if (res.headersSent) return;
    res.status(status).type('html');
    setHeaders(res, errorHeaders());
    res.send(bareErrorDocument(status, TEXT.errorDefault));
  };
  if (!base || 'redirect' in base) return fallback();
  const state = { ...base, page: statusPage(page.site, page.address.path, status, TEXT.errorDefault, unixNow()) };
  const sink: DocumentSink = {
    start: (code) => {
      res.status(code).type('html');
      setHeaders(res, errorHeaders());
    },
    write: (chunk) => res.write(chunk),
    end: () => res.end(),
    shellFailed: fallback,
  };
  await renderDocument(renderOptions(context, state, { ...request, waitForAll: true }, resourceLoads(content)), sink);
}
