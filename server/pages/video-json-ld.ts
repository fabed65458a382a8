/** schema.org VideoObject: what search engines show as a video result (the video and video album pages' heads). */
import { absoluteUrl, logoUrl, rasterImage } from './share-image';
import type { SiteConfig } from '../../shared/sites';
import { isoDateTime } from '../../shared/time';
import type { Video } from '../../shared/types/entities';

export function videoJsonLd(video: Video, site: SiteConfig): Record<string, unknown> {
  const contentUrl = absoluteUrl(video.hls_url, site);
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: video.title,
    description: video.description || video.title,
    thumbnailUrl: [rasterImage(site, [video.cover]) ?? logoUrl(site)],
    // Left out when the CMS sent no usable date: an absent property, never an invalid one.
    ...(video.adddate === null ? {} : { uploadDate: isoDateTime(video.adddate) }),
    duration: `PT${Math.max(1, Math.round(video.duration))}S`,
    ...(contentUrl ? { contentUrl } : {}),
    url: `https://${site.domain}/video/${video.catid}/${video.id}`,
    publisher: { '@type': 'Organization', name: site.seo_title },
  };
}
