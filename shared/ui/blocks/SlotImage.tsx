/**
 * A picture from the CMS drawn in one of the layout's slots: every width its slot asks for, through the image pipeline (`srcset`)
 * and how wide the slot is (`sizes`), so a phone loads a file near its slot's size (docs/decisions/0072). A
 * picture the CMS left empty is drawn with no `src` at all: an empty one would make the browser ask for the page
 * itself, and React reports it. Lazy pictures decode off the main thread.
 */
import { SLOT_SIZES, widthSrcSet } from '../../image-sizes';
import { useImages } from '../context';

export interface SlotImageProps {
  src: string;
  slot: keyof typeof SLOT_SIZES;
  width: number;
  height: number;
  /** Empty for a picture that only illustrates what its link or caption says. */
  alt?: string;
  className?: string;
  /** Below the fold: loaded as it nears the viewport. */
  lazy?: boolean;
}

export function SlotImage({ src, slot, width, height, alt = '', className, lazy = false }: SlotImageProps) {
  const images = useImages();
  return (
    <img
      src={src || undefined}
      srcSet={widthSrcSet(src, images, slot)}
      sizes={SLOT_SIZES[slot]}
      alt={alt}
      width={width}
      height={height}
      className={className}
      loading={lazy ? 'lazy' : undefined}
      decoding={lazy ? 'async' : undefined}
    />
  );
}
