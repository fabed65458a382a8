/**
 * The reader menu for browsers without script. Pages are the same for every reader, and a browser running script
 * shows the menu from the reader cookie (shared/reader-cookie.ts); one without script loads this stylesheet from
 * the page's <noscript> instead. It is answered from the server's session, the authority, and is private: each
 * browser gets its own, never stored. A reader cookie without a live session is cleared here.
 */
import { Router } from 'express';
import { READER_STYLE_PATH, readerProperties } from '../../shared/reader-cookie';
import { PRIVATE_NO_STORE } from '../cache/headers';
import { hasReaderCookie, sessionOf } from './session';
import { clearSessionCookie } from './cookies';

/** What main.css does under <html data-reader>, which a browser without script never gets (the phone's 菜单 panel too). */
const SHOW_READER_MENU =
  '.top-bar__subscribe{display:none}.reader-menu{display:block}.phone-services__subscribe{display:none}.phone-services__reader{display:block}';

export function readerStyleRoutes(secureCookies: boolean): Router {
  const router = Router();
  router.get(READER_STYLE_PATH, (req, res) => {
    res.setHeader('Cache-Control', PRIVATE_NO_STORE);
    res.type('text/css');
    const current = sessionOf(req);
    if (!current) {
      if (hasReaderCookie(req)) clearSessionCookie(req, res, secureCookies);
      res.send('');
      return;
    }
    res.send(`:root{${readerProperties(current.session.user)}}${SHOW_READER_MENU}`);
  });
  return router;
}
