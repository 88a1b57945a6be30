// Containers told apart by their first bytes, whatever the file is called: gzip (1F 8B), zip
// (PK 03 04, or PK 05 06 for an empty one) and OLE (D0 CF 11 E0), the box of old .xls files and of
// encrypted modern workbooks alike.

export type Container = 'gzip' | 'zip' | 'ole' | 'none';

export function sniffContainer(head: Uint8Array): Container {
  const [a, b, c, d] = [head[0], head[1], head[2], head[3]];
  if (a === 0x1f && b === 0x8b) return 'gzip';
  if (a === 0x50 && b === 0x4b && ((c === 3 && d === 4) || (c === 5 && d === 6))) return 'zip';
  if (a === 0xd0 && b === 0xcf && c === 0x11 && d === 0xe0) return 'ole';
  return 'none';
}

const ARCHIVE_EXTENSIONS = /\.(zip|gz|gzip|tgz|tar|7z|rar|bz2|xz|zst|lz|lzma|cab|jar|z)$/i;

/** A name that says archive: inside a zip or gzip such a file is refused (no nesting). */
export function isArchiveName(name: string): boolean {
  return ARCHIVE_EXTENSIONS.test(name);
}

/** Where an OLE file's first directory sector lies, from its 512-byte header. */
export function oleDirectorySector(header: Uint8Array): { offset: number; size: number } | null {
  if (header.length < 512) return null;
  const shift = header[0x1e]! | (header[0x1f]! << 8);
  const size = shift === 12 ? 4096 : 512;
  const first =
    (header[0x30]! | (header[0x31]! << 8) | (header[0x32]! << 16) | (header[0x33]! << 24)) >>> 0;
  return { offset: (first + 1) * size, size };
}

/**
 * Which OLE file this is, from the stream names in its first directory sector: an encrypted
 * Office document keeps its real package in `EncryptedPackage`, an .xls its cells in `Workbook`.
 */
export function oleKind(directory: Uint8Array): 'encrypted' | 'xls' | 'unknown' {
  const names: string[] = [];
  for (let e = 0; e + 128 <= directory.length; e += 128) {
    const length = directory[e + 0x40]! | (directory[e + 0x41]! << 8);
    let name = '';
    for (let i = 0; i + 2 < length && i < 64; i += 2) {
      name += String.fromCharCode(directory[e + i]! | (directory[e + i + 1]! << 8));
    }
    names.push(name);
  }
  if (names.includes('EncryptionInfo') || names.includes('EncryptedPackage')) return 'encrypted';
  if (names.includes('Workbook') || names.includes('Book')) return 'xls';
  return 'unknown';
}
