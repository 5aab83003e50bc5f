// A store-only ZIP (PKWARE APPNOTE 6.3, no compression, no ZIP64), written as a stream and read
// back for verification. Documents are small and mostly already compact; storing them keeps the
// bytes in the archive exactly the bytes that were hashed.
import { crc32 } from "node:zlib";

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
/** Bit 11: names are UTF-8. */
const UTF8 = 0x0800;
export const MAX_ZIP_ENTRIES = 65_535;
const MAX_ZIP_BYTES = 0xffff_fffe;

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((d.getUTCFullYear() - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/**
 * The fields a file's local header and its central directory record share, in the same order from
 * `at`: flags (UTF-8 names), method (0, stored), DOS time and date, CRC-32, compressed and
 * uncompressed size (equal when stored) and the name's length.
 */
function writeEntryFields(b: Buffer, at: number, e: { time: number; date: number; crc: number; size: number; nameLength: number }): void {
  b.writeUInt16LE(UTF8, at);
  b.writeUInt16LE(0, at + 2);
  b.writeUInt16LE(e.time, at + 4);
  b.writeUInt16LE(e.date, at + 6);
  b.writeUInt32LE(e.crc, at + 8);
  b.writeUInt32LE(e.size, at + 12);
  b.writeUInt32LE(e.size, at + 16);
  b.writeUInt16LE(e.nameLength, at + 20);
}

/** Builds a ZIP chunk by chunk: `file()` returns the bytes to send now, `end()` the central directory. */
export class ZipWriter {
  readonly #central: Buffer[] = [];
  #offset = 0;
  #count = 0;
  readonly #stamp: { time: number; date: number };

  constructor(modified: Date = new Date()) {
    this.#stamp = dosTime(modified);
  }

  file(name: string, content: Uint8Array): Buffer {
    if (this.#count >= MAX_ZIP_ENTRIES) throw new Error(`a ZIP without ZIP64 holds at most ${MAX_ZIP_ENTRIES} files`);
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(content);
    const entry = { ...this.#stamp, crc, size: content.length, nameLength: nameBytes.length };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(LOCAL, 0);
    header.writeUInt16LE(20, 4);
    writeEntryFields(header, 6, entry);
    header.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    writeEntryFields(central, 8, entry);
    central.writeUInt32LE(this.#offset, 42);
    this.#central.push(central, nameBytes);
    const chunk = Buffer.concat([header, nameBytes, content]);
    this.#offset += chunk.length;
    if (this.#offset > MAX_ZIP_BYTES) throw new Error("a ZIP without ZIP64 holds at most 4 GB");
    this.#count++;
    return chunk;
  }

  end(): Buffer {
    const directory = Buffer.concat(this.#central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(END, 0);
    end.writeUInt16LE(this.#count, 8);
    end.writeUInt16LE(this.#count, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(this.#offset, 16);
    return Buffer.concat([directory, end]);
  }
}

export interface ZipFile {
  name: string;
  content: Buffer;
  /** The CRC-32 the archive states for the file. */
  crc: number;
}

/** The files of a ZIP by its central directory (stored or deflated entries are read; others refused). */
export function readZip(zip: Buffer): ZipFile[] {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === END) {
      end = i;
      break;
    }
  }
  if (end === -1) throw new Error("not a ZIP file (no end of central directory)");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files: ZipFile[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== CENTRAL) throw new Error("damaged ZIP central directory");
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    if (method !== 0) throw new Error(`${name}: compressed entries are not produced by Fiskal exports`);
    const localName = zip.readUInt16LE(offset + 26);
    const localExtra = zip.readUInt16LE(offset + 28);
    const start = offset + 30 + localName + localExtra;
    files.push({ name, content: zip.subarray(start, start + size), crc });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
