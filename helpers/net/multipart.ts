import { randomBytes } from 'node:crypto';

export interface UploadFile {
  /** The file name sent in the multipart part. */
  name: string;
  /** The declared content type of the part. */
  type: string;
  /** Its length in bytes. */
  size: number;
  /** Its content, in order. A large file is made as it is read: it is never held whole in memory. */
  chunks(): Iterable<Uint8Array>;
}

/** A file whose bytes are at hand. */
export function uploadFile(name: string, type: string, bytes: Uint8Array): UploadFile {
  return { name, type, size: bytes.length, chunks: () => [bytes] };
}

/**
 * A multipart/form-data body (RFC 7578), encoded as undici's FormData encodes one (the same escaping
 * of names, CRLF line breaks in text values, a CRLF after the closing boundary), but made by the
 * suite so that its length is known before it is sent (`Content-Length`, as browsers and curl send
 * it) and its files are read chunk by chunk as the socket takes them: a 10 MB image is never copied
 * whole for a request, and a retried request encodes the form again. A file part's Content-Type is
 * sent as the file declares it (undici would normalise a FormData Blob's type).
 */
export class MultipartForm {
  private readonly parts: [string, string | UploadFile][] = [];
  private readonly boundary = `----conformance-${randomBytes(12).toString('hex')}`;

  /**
   * `fieldsFirst`: every text part is sent before every file part, each kind in the order appended (so a text part
   * appended after a file still goes before it). RFC 7578 keeps the order a client sends, and a server may read the
   * form as a stream that needs its text fields before its files (AWS S3's POST upload: the file "must be the last
   * field in the form"); a form so ordered is read alike by a server that takes the parts in any order.
   */
  constructor(private readonly options: { fieldsFirst?: boolean } = {}) {}

  append(name: string, value: string | UploadFile): void {
    this.parts.push([name, value]);
  }

  /** The fields in the order they are sent: a text value, or a file. */
  entries(): readonly [string, string | UploadFile][] {
    if (!this.options.fieldsFirst) return this.parts;
    return [...this.parts.filter(([, value]) => typeof value === 'string'), ...this.parts.filter(([, value]) => typeof value !== 'string')];
  }

  get contentType(): string {
    return `multipart/form-data; boundary=${this.boundary}`;
  }

  /** The body's length in bytes. */
  get length(): number {
    let length = 0;
    for (const chunk of this.encoded(false)) length += chunk.byteLength;
    return length + this.entries().reduce((sum, [, value]) => sum + (typeof value === 'string' ? 0 : value.size), 0);
  }

  /** The body, chunk by chunk. */
  *chunks(): Generator<Uint8Array> {
    yield* this.encoded(true);
  }

  private *encoded(withFiles: boolean): Generator<Uint8Array> {
    for (const [name, value] of this.entries()) {
      const head = `--${this.boundary}\r\nContent-Disposition: form-data; name="${escapeName(normalizeLinefeeds(name))}"`;
      if (typeof value === 'string') {
        yield Buffer.from(`${head}\r\n\r\n${normalizeLinefeeds(value)}\r\n`);
      } else {
        yield Buffer.from(`${head}${value.name ? `; filename="${escapeName(value.name)}"` : ''}\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`);
        if (withFiles) yield* value.chunks();
        yield CRLF;
      }
    }
    yield Buffer.from(`--${this.boundary}--\r\n`);
  }
}

const CRLF = Buffer.from('\r\n');

const escapeName = (text: string) => text.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
const normalizeLinefeeds = (text: string) => text.replace(/\r?\n|\r/g, '\r\n');
