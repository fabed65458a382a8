/**
 * WeChat JS-SDK sharing, simulated with WeChat's real protocol (ticket and app id from the dataset's seed):
 * - GET /api/wechat/get_jssdk_signature?url, the CMS's call (docs/product.md §7): sha1 of
 *   `jsapi_ticket=…&noncestr=…&timestamp=…&url=…` (in that order, url without its #hash), as WeChat documents;
 * - GET /__wechat/jweixin-1.6.0.js, for res.wx.qq.com's script: the same `wx` interface, verifying its config
 *   against this API and recording every call on `window.__wxCalls` for tests;
 * - GET /__wechat/jssdk_verify, what that script asks: does the signature match the ticket and the page address?
 */
import { createHash, randomBytes } from 'node:crypto';
import type { RawJsSdkSignature } from '../../server/upstream/wire';
import type { Reply } from './http';
import { isHttpUrl } from './params';
import { CODE_BAD_PARAMS, fail, ok } from './reply';

export const JSSDK_SIGNATURE_PATH = '/api/wechat/get_jssdk_signature';
export const JWEIXIN_SCRIPT_PATH = '/__wechat/jweixin-1.6.0.js';
export const JSSDK_VERIFY_PATH = '/__wechat/jssdk_verify';
export const MSG_BAD_URL = 'url参数错误';
const MAX_URL_LENGTH = 2048;

function sha1(text: string): string {
  return createHash('sha1').update(text, 'utf8').digest('hex');
}

/** WeChat signs the page address without its fragment; what follows '#' never reaches the signature. */
export function withoutHash(url: string): string {
  const index = url.indexOf('#');
  return index === -1 ? url : url.slice(0, index);
}

/** The JS-SDK signature exactly as WeChat's documentation defines it. */
export function jsSdkSignature(ticket: string, nonceStr: string, timestamp: number, url: string): string {
  return sha1(`jsapi_ticket=${ticket}&noncestr=${nonceStr}&timestamp=${timestamp}&url=${withoutHash(url)}`);
}

function isPageUrl(value: string): boolean {
  return value.length > 0 && value.length <= MAX_URL_LENGTH && isHttpUrl(value);
}

export class WechatJsSdk {
  readonly appId: string;
  readonly ticket: string;

  constructor(
    seed: number,
    /** Unix seconds on the API's clock. */
    private readonly clock: () => number,
    /** This API's public origin, which the simulated script calls back to verify. */
    private readonly publicUrl: () => string,
  ) {
    this.appId = `wx${sha1(`appid:${seed}`).slice(0, 16)}`;
    this.ticket = sha1(`jsapi_ticket:${seed}`);
  }

  handles(method: string, path: string): boolean {
    return method === 'GET' && (path === JSSDK_SIGNATURE_PATH || path === JWEIXIN_SCRIPT_PATH || path === JSSDK_VERIFY_PATH);
  }

  handle(path: string, query: URLSearchParams): Reply {
    if (path === JWEIXIN_SCRIPT_PATH) return this.script();
    if (path === JSSDK_VERIFY_PATH) return this.verify(query);
    return this.sign(query);
  }

  private sign(query: URLSearchParams): Reply {
    const url = query.get('url') ?? '';
    if (!isPageUrl(url)) return fail(CODE_BAD_PARAMS, MSG_BAD_URL);
    const nonceStr = randomBytes(8).toString('hex');
    const timestamp = this.clock();
    const data: RawJsSdkSignature = { appId: this.appId, timestamp, nonceStr, signature: jsSdkSignature(this.ticket, nonceStr, timestamp, url) };
    return ok(data);
  }

  /** WeChat's answer to wx.config, reduced to what the script needs: valid or 'invalid signature'. */
  private verify(query: URLSearchParams): Reply {
    const timestamp = Number(query.get('timestamp'));
    const url = query.get('url') ?? '';
    const expected = Number.isInteger(timestamp) ? jsSdkSignature(this.ticket, query.get('nonceStr') ?? '', timestamp, url) : '';
    const valid = query.get('appId') === this.appId && isPageUrl(url) && expected !== '' && expected === query.get('signature');
    return {
      kind: 'raw',
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: JSON.stringify({ ok: valid, errMsg: valid ? 'config:ok' : 'config:invalid signature' }),
      // The page on the portal's origin asks with fetch.
      headers: { 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' },
    };
  }

  private script(): Reply {
    return {
      kind: 'raw',
      status: 200,
      contentType: 'application/javascript; charset=utf-8',
      body: simulatedJweixin(`${this.publicUrl()}${JSSDK_VERIFY_PATH}`),
      headers: { 'Cache-Control': 'no-store' },
    };
  }
}

/** The `wx` object of jweixin-1.6.0.js, for the calls the portal makes; plain ES5 like the original. */
function simulatedJweixin(verifyUrl: string): string {
  return `/* Simulated WeChat JS-SDK (reference API): same interface as jweixin-1.6.0.js, calls recorded on window.__wxCalls. */
(function () {
  var calls = (window.__wxCalls = []);
  var state = { verified: null, apis: [], ready: [], error: [] };
  function record(name, args) { calls.push({ name: name, args: JSON.parse(JSON.stringify(args === undefined ? null : args)) }); }
  function settle(ok, errMsg) {
    state.verified = ok;
    window.__wxVerified = ok;
    var list = ok ? state.ready : state.error;
    state.ready = [];
    state.error = [];
    for (var i = 0; i < list.length; i += 1) list[i](ok ? undefined : { errMsg: errMsg });
  }
  function share(name, options) {
    record(name, { title: options.title, desc: options.desc, link: options.link, imgUrl: options.imgUrl });
    var allowed = state.verified === true && state.apis.indexOf(name) !== -1;
    if (allowed) { if (options.success) options.success({ errMsg: name + ':ok' }); }
    else if (options.fail) options.fail({ errMsg: name + ':permission denied' });
  }
  window.wx = {
    config: function (config) {
      record('config', config);
      state.verified = null;
      state.apis = config.jsApiList || [];
      var query = new URLSearchParams({
        appId: String(config.appId), timestamp: String(config.timestamp), nonceStr: String(config.nonceStr),
        signature: String(config.signature), url: location.href.split('#')[0]
      });
      fetch(${JSON.stringify(verifyUrl)} + '?' + query.toString())
        .then(function (response) { return response.json(); })
        .then(function (answer) { settle(answer.ok === true, answer.errMsg); })
        .catch(function () { settle(false, 'config:fail'); });
    },
    ready: function (callback) { if (state.verified === true) callback(); else state.ready.push(callback); },
    error: function (callback) { if (state.verified === false) callback({ errMsg: 'config:invalid signature' }); else state.error.push(callback); },
    updateAppMessageShareData: function (options) { share('updateAppMessageShareData', options); },
    updateTimelineShareData: function (options) { share('updateTimelineShareData', options); }
  };
})();
`;
}
