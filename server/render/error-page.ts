/**
 * The error page of a render whose shell failed: the page's layout around React Router's error boundary of the
 * page's route (page-router.ts, failedRenderContext), rendered whole, a 500; if even that cannot be rendered, a
 * bare error document. Never kept by any cache (edge/page-response.ts).
 */
import type { Response } from 'express';
import { TEXT } from '../../shared/constants';
import { CallRecorder } from '../upstream/content-service';
import { bareErrorDocument } from '../platform/html';
import { renderOptions, resourceLoads, type DocumentRequest, type PageContext } from './page-context';
import { failedRenderContext } from './page-router';
import type { DocumentState } from './page-state';
import { errorHeaders, setHeaders } from '../edge/page-response';
import { statusPage, unixNow } from './page-status';
import { renderDocument, type DocumentSink } from './render-document';

const STATUS = 500;

export async function sendErrorPage(context: PageContext, res: Response, request: DocumentRequest, failed: DocumentState, error: unknown): Promise<void> {
  const { page } = request;
  const fallback = () => {
    if (res.headersSent) return;
    res.status(STATUS).type('html');
    setHeaders(res, errorHeaders());
    res.send(bareErrorDocument(STATUS, TEXT.errorDefault));
  };
  const errorPage: DocumentState = {
    state: { ...failed.state, page: statusPage(page.site, page.address.path, STATUS, TEXT.errorDefault, unixNow()) },
    router: failedRenderContext(failed.router, error),
  };
  const sink: DocumentSink = {
    start: (code) => {
      res.status(code).type('html');
      setHeaders(res, errorHeaders());
    },
    write: (chunk) => res.write(chunk),
    end: () => res.end(),
    shellFailed: fallback,
  };
  // Its blocks load nothing: the error page's content is the boundary's.
  const content = context.deps.content.forRequest(new CallRecorder());
  await renderDocument(renderOptions(context, errorPage, { ...request, waitForAll: true }, resourceLoads(content)), sink);
}
