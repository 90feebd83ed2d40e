import { join } from 'node:path';
import { nativeImage, type NativeImage } from 'electron';
import type { Logger } from '../platform/log.js';
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

/**
 * Windows and Linux: a black template glyph disappears on dark panels, so
 * the idle icon there is the app's colours, drawn at 16 and 32 px (not the
 * 512/1024-px app icon scaled down, which blurs; issue 21, item 8).
 */
export const TRAY_IDLE_COLOUR_FILE = 'tray-idle.png';

export class TrayIcons {
  private readonly cache = new Map<TrayIconState, NativeImage>();

  constructor(
    private readonly resourcesDir: string,
    private readonly platform: NodeJS.Platform = process.platform,
    private readonly logger?: Pick<Logger, 'warn'>,
  ) {}

  /** The file for a state on this platform (its @2x twin sits next to it). */
  file(state: TrayIconState): string {
    if (state === 'idle' && this.platform !== 'darwin') return TRAY_IDLE_COLOUR_FILE;
    return TRAY_ICON_FILES[state];
  }

  image(state: TrayIconState): NativeImage {
    let img = this.cache.get(state);
    if (!img) {
      img = this.load(state);
      this.cache.set(state, img);
    }
    return img;
  }

  private load(state: TrayIconState): NativeImage {
    const path = join(this.resourcesDir, this.file(state));
    const img = nativeImage.createFromPath(path);
    // A missing file gives an empty image, not an error — and an empty tray icon is invisible.
    if (img.isEmpty()) this.logger?.warn('tray icon missing or unreadable', { file: path });
    if (this.platform === 'darwin') img.setTemplateImage(state === 'idle');
    return img;
  }
}

/** Side of the notification image sent on Linux: what notification servers show, and 16 KiB of pixels. */
export const LINUX_NOTIFICATION_ICON_PX = 64;

/**
 * The icon for approval notifications. On Linux Electron sends the icon's pixels over D-Bus with
 * every notification (shell/browser/notifications/linux/libnotify_notification.cc:
 * notify_notification_set_image_from_pixbuf): the 1024-px app icon is 4 MiB each time, so a
 * 64-px copy goes instead (issue 32, item 9). Windows and macOS take the file.
 */
export function notificationIcon(
  resourcesDir: string,
  platform: NodeJS.Platform = process.platform,
): string | NativeImage {
  const path = join(resourcesDir, 'icon.png');
  if (platform !== 'linux') return path;
  const side = LINUX_NOTIFICATION_ICON_PX;
  return nativeImage.createFromPath(path).resize({ width: side, height: side, quality: 'best' });
}
