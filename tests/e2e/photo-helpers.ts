// Phone photos for tests, made at test time (no big binary fixtures): an EXIF segment like a phone camera writes (an
// orientation and a GPS position), spliced into a JPEG's bytes, and a reader of a JPEG's segments to check what a
// stored picture still carries. Plain bytes, no Playwright: the unit tests use them too.

const u16 = (value: number) => [(value >> 8) & 0xff, value & 0xff];
const u32 = (value: number) => [(value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Colombo, 6°55'30"N 79°51'12"E: where the shop's owner took the photo. */
const GPS = { latitude: [6, 55, 30], longitude: [79, 51, 12] } as const;

/**
 * An APP1 Exif segment (big-endian TIFF): IFD0 with the Orientation tag (1 upright, 6 "turn 90° clockwise to show",
 * as a phone held upright writes) and a pointer to a GPS IFD holding a latitude and longitude.
 */
export function exifSegment(orientation: number): Uint8Array {
  // TIFF header (8), IFD0 at 8: 2 entries (2 + 24 + 4 = 30 bytes), the GPS IFD at 38: 4 entries (2 + 48 + 4 = 54
  // bytes), then the two rationals' triples at 92 and 116.
  const entry = (tag: number, type: number, count: number, value: number[]) => [...u16(tag), ...u16(type), ...u32(count), ...value];
  const rationals = (values: readonly number[]) => values.flatMap((value) => [...u32(value), ...u32(1)]);
  const tiff = [
    ...ascii("MM"), ...u16(42), ...u32(8),
    ...u16(2),
    ...entry(0x0112, 3, 1, [...u16(orientation), 0, 0]), // Orientation, SHORT
    ...entry(0x8825, 4, 1, u32(38)), // GPSInfo IFD pointer, LONG
    ...u32(0),
    ...u16(4),
    ...entry(0x0001, 2, 2, [...ascii("N"), 0, 0, 0]), // GPSLatitudeRef
    ...entry(0x0002, 5, 3, u32(92)), // GPSLatitude, 3 RATIONALs
    ...entry(0x0003, 2, 2, [...ascii("E"), 0, 0, 0]), // GPSLongitudeRef
    ...entry(0x0004, 5, 3, u32(116)), // GPSLongitude
    ...u32(0),
    ...rationals(GPS.latitude),
    ...rationals(GPS.longitude),
  ];
  const payload = [...ascii("Exif"), 0, 0, ...tiff];
  return new Uint8Array([0xff, 0xe1, ...u16(payload.length + 2), ...payload]);
}

/** The JPEG with an Exif segment right after its SOI, where cameras write it. */
export function withExif(jpeg: Uint8Array, orientation = 6): Uint8Array {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error("not a JPEG");
  const segment = exifSegment(orientation);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}

/** A JPEG's header segments up to the image data: each marker with the first bytes of its payload. */
export function jpegSegments(b: Uint8Array): { marker: number; head: string }[] {
  const segments: { marker: number; head: string }[] = [];
  let i = 2;
  while (i + 4 <= b.length && b[i] === 0xff) {
    const marker = b[i + 1];
    if (marker === 0xda || marker === 0xd9) break;
    const length = (b[i + 2] << 8) | b[i + 3];
    segments.push({ marker, head: String.fromCharCode(...b.subarray(i + 4, i + 4 + Math.min(6, length - 2))) });
    i += 2 + length;
  }
  return segments;
}

/** Whether a JPEG carries an APP1 Exif segment. */
export const hasExif = (jpeg: Uint8Array) => jpegSegments(jpeg).some((segment) => segment.marker === 0xe1 && segment.head.startsWith("Exif"));

/** Width and height from a JPEG's frame header (SOF0/SOF2), read independently of the app's code. */
export function jpegDimensions(b: Uint8Array): { width: number; height: number } {
  let i = 2;
  while (i + 9 < b.length) {
    const marker = b[i + 1];
    if (marker === 0xc0 || marker === 0xc2) return { width: (b[i + 7] << 8) | b[i + 8], height: (b[i + 5] << 8) | b[i + 6] };
    i += 2 + ((b[i + 2] << 8) | b[i + 3]);
  }
  throw new Error("no frame header");
}
