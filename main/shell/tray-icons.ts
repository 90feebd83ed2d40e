import { join } from 'node:path';
import { nativeImage, type NativeImage } from 'electron';
import type { TrayIconState } from './tray-menu.js';

/**
 * Tray images from resources/ (scripts/make-icons.mjs draws them). Each
 * name has a 16-px file and an `@2x` 32-px file; nativeImage picks the
 * right one for the display's scale factor by the `@2x` suffix.
 *
 * macOS: the idle icon is a template image (black + alpha, the OS tints
 * it for light/dark menu bars); the state icons keep their colour on
 * purpose, so waiting approvals and a paused or broken gateway stand out.
 */
export const TRAY_ICON_FILES: Record<TrayIconState, string> = {
  idle: 'trayTemplate.png',
  pending: 'tray-pending.png',
  paused: 'tray-paused.png',
  alert: 'tray-alert.png',
};

export class TrayIcons {
  private readonly cache = new Map<TrayIconState, NativeImage>();

  constructor(
    private readonly resourcesDir: string,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  image(state: TrayIconState): NativeImage {
    let img = this.cache.get(state);
    if (!img) {
      img = this.load(state);
      this.cache.set(state, img);
    }
    return img;
  }

  private load(state: TrayIconState): NativeImage {
    if (state === 'idle' && this.platform !== 'darwin') {
      // A black template glyph disappears on dark Windows/Linux panels: use the app icon there.
      return nativeImage
        .createFromPath(join(this.resourcesDir, 'icon.png'))
        .resize({ width: 32, height: 32, quality: 'best' });
    }
    const img = nativeImage.createFromPath(join(this.resourcesDir, TRAY_ICON_FILES[state]));
    if (this.platform === 'darwin') img.setTemplateImage(state === 'idle');
    return img;
  }
}
