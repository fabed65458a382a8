/**
 * `/assets/qr/{text as base64url}.svg`: the chrome's QR codes as immutable images (shared/qr-image-path.ts
 * names them). The URL is the code's whole content, so any instance answers any of them with no state, and the
 * answer may be cached for good. A name that is not exactly what qrImagePath makes is a 404.
 */
import { Router } from 'express';
import { qrTextOfImageName } from '../shared/qr-image-path';
import { qrSvgDocument } from './qr';

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

export function qrImageRoutes(): Router {
  const router = Router();
  router.get('/assets/qr/:name', (req, res) => {
    const text = qrTextOfImageName(req.params.name);
    if (text === null) {
      res.status(404).type('text/plain').send('没有这个二维码图片\n');
      return;
    }
    res.setHeader('Cache-Control', `public, max-age=${ONE_YEAR_SECONDS}, immutable`);
    res.type('image/svg+xml').send(qrSvgDocument(text));
  });
  return router;
}
