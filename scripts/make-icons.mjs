#!/usr/bin/env node
// Generates the tray/app icons in resources/ (no dependencies: shapes are rasterised
// with 4x4 supersampling and written as RGBA PNGs via node:zlib).
//
//   node scripts/make-icons.mjs
//
// Glyph: a shield with a round airlock hatch (ring + locking bar).
//   trayTemplate(@2x).png   black on transparent, macOS template image (tinted by the OS)
//   tray-pending(@2x).png   amber shield + hatch: approvals waiting
//   tray-paused(@2x).png    grey shield + pause bars: gateway paused
//   tray-alert(@2x).png     red shield + "!": error / needs attention
//   tray-idle(@2x).png      sky shield + dark hatch: idle on Windows/Linux panels (light or dark),
//                           drawn at 16/32 px from the shapes, never scaled down from the app icon
//   icon.png                1024x1024 app icon (macOS wants 1024 for the .icns; Windows/Linux
//                           icons are made from it by electron-builder)
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources');

// ---------- PNG encoding ----------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** @param {number} size @param {Uint8Array} rgba */
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * size * 4, size * 4).copy(raw, y * (size * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------- shapes, in unit coordinates (0..1, y down) ----------
/** Shield: flat top, straight sides, tapering to a point at the bottom. */
function inShield(x, y, inset = 0) {
  const top = 0.06 + inset;
  const mid = 0.5;
  const bottom = 0.95 - inset * 1.6;
  const half = 0.38 - inset;
  if (y < top || y > bottom) return false;
  const dx = Math.abs(x - 0.5);
  if (y <= mid) return dx <= half;
  const t = (y - mid) / (bottom - mid);
  return dx <= half * (1 - Math.pow(t, 1.5));
}
const inCircle = (x, y, cx, cy, r) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const inRect = (x, y, x0, y0, x1, y1) => x >= x0 && x <= x1 && y >= y0 && y <= y1;

const HATCH = { cx: 0.5, cy: 0.45, r: 0.2, w: 0.075 };
function inHatch(x, y) {
  const { cx, cy, r, w } = HATCH;
  const ring = inCircle(x, y, cx, cy, r) && !inCircle(x, y, cx, cy, r - w);
  const bar = inRect(x, y, cx - r + w / 2, cy - w / 2, cx + r - w / 2, cy + w / 2);
  return ring || bar;
}
const inPause = (x, y) =>
  inRect(x, y, 0.36, 0.28, 0.45, 0.62) || inRect(x, y, 0.55, 0.28, 0.64, 0.62);
const inBang = (x, y) => inRect(x, y, 0.445, 0.22, 0.555, 0.55) || inCircle(x, y, 0.5, 0.66, 0.065);

// ---------- rendering ----------
/**
 * @param {number} size
 * @param {(x: number, y: number) => [number, number, number, number] | null} paint
 *   colour of the topmost shape at (x, y), or null for transparent.
 */
function render(size, paint) {
  const SS = 4;
  const out = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let [r, g, b, a] = [0, 0, 0, 0];
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const c = paint((px + (sx + 0.5) / SS) / size, (py + (sy + 0.5) / SS) / size);
          if (!c) continue;
          const ca = c[3] / 255;
          r += c[0] * ca;
          g += c[1] * ca;
          b += c[2] * ca;
          a += ca;
        }
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        out[i] = Math.round(r / a);
        out[i + 1] = Math.round(g / a);
        out[i + 2] = Math.round(b / a);
        out[i + 3] = Math.round((a / (SS * SS)) * 255);
      }
    }
  }
  return encodePng(size, out);
}

const BLACK = [0, 0, 0, 255];
const WHITE = [255, 255, 255, 255];

/** Outline shield + hatch (template). */
const templatePaint = (x, y) => {
  if (inShield(x, y) && !inShield(x, y, 0.085)) return BLACK;
  if (inHatch(x, y)) return BLACK;
  return null;
};

/** Filled shield in `fill`, with `symbol` knocked out in white. */
const filledPaint = (fill, symbol) => (x, y) => {
  if (!inShield(x, y)) return null;
  return symbol(x, y) ? WHITE : fill;
};

const AMBER = [217, 119, 6, 255];
const GREY = [107, 114, 128, 255];
const RED = [220, 38, 38, 255];
const NAVY = [15, 23, 42, 255];
const SKY = [56, 189, 248, 255];

/** App icon: rounded dark square, sky-blue shield, dark hatch. */
const appPaint = (x, y) => {
  const m = 0.04;
  const rr = 0.2;
  const qx = Math.min(Math.max(x, m + rr), 1 - m - rr);
  const qy = Math.min(Math.max(y, m + rr), 1 - m - rr);
  if ((x - qx) ** 2 + (y - qy) ** 2 > rr * rr) return null;
  // Shield occupies the middle ~70% of the tile.
  const s = 0.7;
  const ux = (x - 0.5) / s + 0.5;
  const uy = (y - 0.5) / s + 0.5;
  if (inShield(ux, uy)) return inHatch(ux, uy) ? NAVY : SKY;
  return NAVY;
};

/** Idle on Windows/Linux: the app's colours, no tile, so it reads on light and dark panels. */
const idlePaint = (x, y) => {
  if (!inShield(x, y)) return null;
  return inHatch(x, y) ? NAVY : SKY;
};

const icons = {
  trayTemplate: templatePaint,
  'tray-idle': idlePaint,
  'tray-pending': filledPaint(AMBER, inHatch),
  'tray-paused': filledPaint(GREY, inPause),
  'tray-alert': filledPaint(RED, inBang),
};

mkdirSync(OUT, { recursive: true });
let total = 0;
const write = (name, png) => {
  writeFileSync(join(OUT, name), png);
  total += png.length;
  console.log(`${name.padEnd(24)} ${png.length} B`);
};
for (const [name, paint] of Object.entries(icons)) {
  write(`${name}.png`, render(16, paint));
  write(`${name}@2x.png`, render(32, paint));
}
write('icon.png', render(1024, appPaint));
console.log(`total ${total} B -> ${OUT}`);
