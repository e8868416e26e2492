import type { GatewayOptions } from '../gateway.options';

/** Budget when no app config is present (module tests); apps take `UPLOAD_MEMORY_BUDGET_MB` from their validated config. */
export const DEFAULT_UPLOAD_MEMORY_BUDGET_MB = 256;
/** Uploads one caller (account, or IP when anonymous) may have in flight at once. */
export const MAX_UPLOADS_IN_FLIGHT_PER_CALLER = 2;

/** Multipart limits besides file count and size (multer, GatewayModule): form fields, their size, and all parts. */
export const MULTIPART_MAX_FIELDS = 50;
export const MULTIPART_MAX_FIELD_BYTES = 1024 * 1024;
export const MULTIPART_EXTRA_PARTS = 60;
/** Allowance per part for its boundary and headers (busboy refuses a part header beyond 16 KiB). */
export const MULTIPART_PART_OVERHEAD_BYTES = 16 * 1024;

/** The limits multer enforces on every upload: the parser holds at most what these allow. */
export function multipartLimits(o: Pick<GatewayOptions, 'maxFileBytes' | 'maxFiles'>) {
  return {
    fileSize: o.maxFileBytes,
    files: o.maxFiles,
    fields: MULTIPART_MAX_FIELDS,
    fieldSize: MULTIPART_MAX_FIELD_BYTES,
    parts: o.maxFiles + MULTIPART_EXTRA_PARTS,
  };
}

/** The largest request body multer can accept: every file at its maximum, every field at its maximum, and each part's framing. */
export function maxUploadRequestBytes(o: Pick<GatewayOptions, 'maxFileBytes' | 'maxFiles'>): number {
  const l = multipartLimits(o);
  return l.files * l.fileSize + l.fields * l.fieldSize + l.parts * MULTIPART_PART_OVERHEAD_BYTES;
}

export type UploadAdmission =
  { admitted: true; /** Gives the bytes back; later calls do nothing. */ release: () => void } | { admitted: false; reason: 'caller_busy' | 'budget_full' };

/**
 * The bytes uploads may hold in this process at once (multer parses them in memory). An upload reserves its declared size
 * before its body is read and gives it back when its response closes. An upload larger than the whole budget is admitted
 * when nothing else is in flight, so the largest allowed upload always works on an idle process; one caller holds at most
 * `maxPerCaller` uploads, so it cannot keep the budget to itself with slow uploads.
 */
export class UploadBudget {
  private bytes = 0;
  private uploads = 0;
  private readonly perCaller = new Map<string, number>();

  constructor(
    readonly budgetBytes: number,
    readonly maxPerCaller: number = MAX_UPLOADS_IN_FLIGHT_PER_CALLER,
  ) {}

  /** Reserves `bytes` for one upload of `caller`, or says why not (the caller's cap first, then the budget). */
  tryReserve(caller: string, bytes: number): UploadAdmission {
    const held = this.perCaller.get(caller) ?? 0;
    if (held >= this.maxPerCaller) return { admitted: false, reason: 'caller_busy' };
    if (this.uploads > 0 && this.bytes + bytes > this.budgetBytes) return { admitted: false, reason: 'budget_full' };
    this.bytes += bytes;
    this.uploads++;
    this.perCaller.set(caller, held + 1);
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        this.bytes -= bytes;
        this.uploads--;
        const left = (this.perCaller.get(caller) ?? 1) - 1;
        if (left > 0) this.perCaller.set(caller, left);
        else this.perCaller.delete(caller);
      },
    };
  }

  /** What is in flight now: reserved bytes, uploads, and callers holding at least one. */
  inFlight(): { bytes: number; uploads: number; callers: number } {
    return { bytes: this.bytes, uploads: this.uploads, callers: this.perCaller.size };
  }
}
