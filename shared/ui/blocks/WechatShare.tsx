/**
 * Sharing inside WeChat (docs/product.md §7): only in WeChat's own browser, load the JS-SDK from the configured address
 * (WECHAT_JSSDK_URL; the CSP's 'strict-dynamic' trusts a script our bundle inserts), have the CMS sign
 * this page's address through the proxy, then wx.config and, once WeChat accepts it, set the chat and timeline
 * cards. Again after each client navigation, since the signature covers one address. Elsewhere nothing loads.
 * Renders nothing.
 */
import { useEffect } from 'react';
import { isWechatBrowser, SHARE_APIS, shareCard, siteShareName, type ShareCard } from '../../share';
import type { RawJsSdkSignature } from '../../types/interactions';
import { usePortal } from '../context';
import { proxyGet } from '../lib/proxy-fetch';

interface WxShareOptions extends ShareCard {
  success?: () => void;
  fail?: (error: { errMsg: string }) => void;
}

/** The part of jweixin's `wx` the portal calls. */
interface WxSdk {
  config(config: RawJsSdkSignature & { debug: boolean; jsApiList: string[] }): void;
  ready(callback: () => void): void;
  error(callback: (error: { errMsg: string }) => void): void;
  updateAppMessageShareData(options: WxShareOptions): void;
  updateTimelineShareData(options: WxShareOptions): void;
}

declare global {
  interface Window {
    wx?: WxSdk;
  }
}

let loading: Promise<WxSdk> | null = null;

/** One script element per page life; a failed load may be tried again on the next navigation. */
function loadJsSdk(src: string): Promise<WxSdk> {
  loading ??= new Promise<WxSdk>((resolve, reject) => {
    if (window.wx) return resolve(window.wx);
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => (window.wx ? resolve(window.wx) : reject(new Error('the JS-SDK defined no wx')));
    script.onerror = () => reject(new Error(`the JS-SDK did not load from ${src}`));
    document.head.appendChild(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

async function configureShare(sdkUrl: string, card: ShareCard, isCurrent: () => boolean): Promise<void> {
  const wx = await loadJsSdk(sdkUrl);
  const answer = await proxyGet<RawJsSdkSignature>('/api/wechat/get_jssdk_signature', { url: card.link });
  // A CMS that cannot sign leaves WeChat's default card: nothing to tell the reader.
  if (!isCurrent() || answer.code !== 0 || !answer.data) return;
  const { appId, timestamp, nonceStr, signature } = answer.data;
  wx.config({ debug: false, appId, timestamp, nonceStr, signature, jsApiList: [...SHARE_APIS] });
  wx.ready(() => {
    if (!isCurrent()) return;
    wx.updateAppMessageShareData(card);
    wx.updateTimelineShareData(card);
  });
}

export function WechatShare() {
  const { state } = usePortal();
  const { page, site, layout, wechatJsSdkUrl } = state;
  const head = page.head;
  const siteTitle = layout.seo.title;
  const siteName = siteShareName(site);
  // One card per page shown: a new page brings a new head; the site's title and name do not change under it.
  useEffect(() => {
    if (!isWechatBrowser(navigator.userAgent)) return;
    let current = true;
    const card = shareCard({
      head,
      siteTitle,
      siteName,
      href: window.location.href,
      fallbackImage: new URL('/logo.png', window.location.origin).toString(),
    });
    // An SDK that does not load leaves WeChat's default card, which is all a reader would notice anyway.
    configureShare(wechatJsSdkUrl, card, () => current).catch(() => undefined);
    return () => {
      current = false;
    };
  }, [head, siteTitle, siteName, wechatJsSdkUrl]);
  return null;
}
