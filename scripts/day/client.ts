/**
 * The day's readers' HTTP client: one GET through the edge as a browser or crawler sends it (Host, User-Agent,
 * Accept-Encoding gzip, cookies), the body read whole and decoded so every view can be checked for headlines.
 * And the WeChat sign-in of the signed-in readers, through the edge, as test/support/sign-in.ts does it.
 */
import http from 'node:http';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { MAIN_DOMAIN } from '../../shared/sites';

const unzip = promisify(gunzip);

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Request {
  host: string;
  path: string;
  headers?: Record<string, string>;
}

/**
 * One GET to `base` (the edge) with the site's Host; rejects on a network error or after `timeoutMs`. Sent once
 * more, as a browser does, when a kept-alive connection turns out closed before anything came back on it: the
 * edge closes connections idle for its timeout_idle, and one may close just as the next request goes out on it
 * (Node's docs, `request.reusedSocket`). Any other failure, and a second one, is the reader's error.
 */
export async function get(base: string, request: Request, agent: http.Agent, timeoutMs = 30_000): Promise<Answer> {
  try {
    return await getOnce(base, request, agent, timeoutMs);
  } catch (error) {
    if (!(error instanceof StaleConnection)) throw error;
    return getOnce(base, request, agent, timeoutMs);
  }
}

/** A kept-alive connection the edge had closed: the request never reached it. */
class StaleConnection extends Error {}

function getOnce(base: string, request: Request, agent: http.Agent, timeoutMs: number): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: url.hostname,
        port: url.port,
        path: request.path,
        agent,
        headers: { host: request.host, 'accept-encoding': 'gzip', ...request.headers },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const decoded = res.headers['content-encoding'] === 'gzip' ? unzip(raw) : Promise.resolve(raw);
          decoded.then((body) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body.toString('utf8') }), reject);
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) => {
      const closedBeforeAnswer = req.reusedSocket && (error.code === 'ECONNRESET' || error.message === 'socket hang up');
      reject(closedBeforeAnswer ? new StaleConnection(error.message) : error);
    });
  });
}

function cookieValue(answer: Answer, name: string): string | null {
  const line = (answer.headers['set-cookie'] ?? []).find((entry) => entry.startsWith(`${name}=`));
  return line ? line.slice(name.length + 1).split(';')[0]! : null;
}

/**
 * A reader signed in through the whole flow: the portal's /login/wechat (through the edge), the reference API's
 * simulated WeChat confirm step, the portal's callback; the Cookie header a browser then sends.
 */
export async function signIn(edge: string, upstream: string, nickname: string, agent: http.Agent): Promise<string> {
  const started = await get(edge, { host: MAIN_DOMAIN, path: '/login/wechat?return=%2F' }, agent);
  const state = cookieValue(started, 'portal_login_state');
  const qr = started.headers.location;
  if (started.status !== 302 || !state || !qr) throw new Error(`/login/wechat answered ${started.status}`);
  const confirm = new URL('/__wechat/confirm', upstream);
  confirm.searchParams.set('redirect_uri', new URL(qr).searchParams.get('redirect_uri') ?? '');
  confirm.searchParams.set('state', state);
  confirm.searchParams.set('nickname', nickname);
  const confirmed = await get(upstream, { host: new URL(upstream).host, path: confirm.pathname + confirm.search }, agent);
  const callback = new URL(String(confirmed.headers.location));
  const back = await get(edge, { host: MAIN_DOMAIN, path: callback.pathname + callback.search, headers: { cookie: `portal_login_state=${state}` } }, agent);
  const session = cookieValue(back, 'portal_session');
  const reader = cookieValue(back, 'portal_reader');
  if (back.status !== 302 || !session || !reader) throw new Error(`the sign-in callback answered ${back.status}`);
  return `portal_session=${session}; portal_reader=${reader}`;
}
