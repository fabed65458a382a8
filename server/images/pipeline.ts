/**
 * The image pipeline this portal's pages draw with (shared/image-pipeline.ts), from its configuration
 * (IMAGE_RESIZER, docs/images.md): the pictures it resizes are those on MEDIA_ORIGINS and the content API's own
 * origin (where a CMS serves its uploads, as the CSP allows), or in embedded mode the reference API's `/media/`.
 */
import type { Config } from '../platform/config';
import { IMAGES_OFF, type ImagePipeline } from '../../shared/image-pipeline';

export function imagePipelineOf(
  config: Pick<Config, 'IMAGE_RESIZER' | 'IMAGE_CDN_TEMPLATE' | 'IMAGE_CDN_FORMAT' | 'MEDIA_ORIGINS'>,
  upstreamUrl: string,
  embedded: boolean,
): ImagePipeline {
  const origins = [...new Set([...config.MEDIA_ORIGINS, ...(embedded ? [] : [new URL(upstreamUrl).origin])])];
  if (config.IMAGE_RESIZER === 'off') return IMAGES_OFF;
  if (config.IMAGE_RESIZER === 'cdn' && config.IMAGE_CDN_TEMPLATE) {
    return { kind: 'cdn', origins: config.MEDIA_ORIGINS, template: config.IMAGE_CDN_TEMPLATE, format: config.IMAGE_CDN_FORMAT };
  }
  return { kind: 'resizer', origins, relative: embedded };
}
