/**
 * Sign-in settings resolved from the configuration once: in-process (local) runs get a working WeChat stand-in
 * and a localhost callback without any setting; production reads WECHAT_APP_ID and the public origins.
 */
import { MAIN_DOMAIN } from '../../shared/sites';
import type { Config } from '../platform/config';

export const WECHAT_QRCONNECT_URL = 'https://open.weixin.qq.com/connect/qrconnect';
/** The reference API's simulated WeChat page (scripts/reference-api/accounts.ts). */
export const SIMULATED_QRCONNECT_PATH = '/__wechat/qrconnect';
const EMBEDDED_APP_ID = 'wx_reference_portal';

export interface AuthSettings {
  /** null: sign-in is not configured here, /login/wechat says so instead of sending readers to a broken page. */
  appId: string | null;
  qrconnectUrl: string;
  /** Origin of the main site's login callback (docs/product.md §7: the redirect goes to the main site's login page). */
  callbackOrigin: string;
  secureCookies: boolean;
  sessionTtlSeconds: number;
}

export type AuthConfig = Pick<
  Config,
  'WECHAT_APP_ID' | 'WECHAT_QRCONNECT_URL' | 'LOGIN_CALLBACK_ORIGIN' | 'PUBLIC_ORIGIN_PROTOCOL' | 'SESSION_TTL_HOURS' | 'PORT'
>;

/** `embeddedUpstreamUrl`: the in-process reference API, when that is the content API. */
export function authSettings(config: AuthConfig, embeddedUpstreamUrl?: string): AuthSettings {
  const embedded = embeddedUpstreamUrl !== undefined;
  return {
    appId: config.WECHAT_APP_ID ?? (embedded ? EMBEDDED_APP_ID : null),
    qrconnectUrl: config.WECHAT_QRCONNECT_URL ?? (embedded ? `${embeddedUpstreamUrl}${SIMULATED_QRCONNECT_PATH}` : WECHAT_QRCONNECT_URL),
    callbackOrigin: (
      config.LOGIN_CALLBACK_ORIGIN ?? (embedded ? `http://localhost:${config.PORT}` : `${config.PUBLIC_ORIGIN_PROTOCOL}://${MAIN_DOMAIN}`)
    ).replace(/\/$/, ''),
    secureCookies: config.PUBLIC_ORIGIN_PROTOCOL === 'https',
    sessionTtlSeconds: config.SESSION_TTL_HOURS * 3600,
  };
}
