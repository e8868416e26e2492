import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { DomainError } from '@gaia/shared/kernel';
import { callerBucket, principalOf } from '../auth/principal';
import { GATEWAY_OPTIONS, type GatewayOptions } from '../gateway.options';
import { maxUploadRequestBytes, UploadBudget } from './upload-budget';

/** Seconds a refused upload is told to wait (Retry-After): uploads in flight usually finish within that. */
export const UPLOAD_RETRY_AFTER_SECONDS = 5;
export const UPLOADS_BUSY = 'uploads_busy';
export const TOO_MANY_UPLOADS = 'too_many_uploads';
export const UPLOAD_TOO_LARGE = 'upload_too_large';

/**
 * Goes before the multipart interceptor of every upload route: reserves the request's declared Content-Length in the
 * process's UploadBudget before multer reads a byte (Node never reads a body past its Content-Length, so that bounds
 * what multer can buffer; a chunked request reserves the largest possible upload) and gives it back when the response
 * closes (finished or aborted). Refusals come before multer reads a byte: 413 above the largest possible request (and the
 * connection is closed, so that body is never read), 429 past the caller's uploads in flight, 503 when the budget is full —
 * both with Retry-After.
 */
@Injectable()
export class UploadBudgetInterceptor implements NestInterceptor {
  private readonly maxRequestBytes: number;

  constructor(
    private readonly budget: UploadBudget,
    @Inject(GATEWAY_OPTIONS) options: GatewayOptions,
  ) {
    this.maxRequestBytes = maxUploadRequestBytes(options);
  }

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = ctx.switchToHttp().getRequest<Request>();
    const res = ctx.switchToHttp().getResponse<Response>();
    const declared = req.headers['content-length'];
    const bytes = declared === undefined ? this.maxRequestBytes : Number(declared);
    if (bytes > this.maxRequestBytes) {
      res.setHeader('Connection', 'close');
      throw new DomainError(UPLOAD_TOO_LARGE, 'The upload is too large.', 413, { maxBytes: this.maxRequestBytes });
    }
    const admission = this.budget.tryReserve(callerBucket(principalOf(req), req), bytes);
    if (!admission.admitted) {
      // The unread body (at most the maximum request) is discarded by Node as it arrives, so the client reads the answer.
      if (admission.reason === 'caller_busy') {
        throw DomainError.tooMany(
          'Too many uploads in progress for this account. Please wait for one to finish.',
          UPLOAD_RETRY_AFTER_SECONDS,
          TOO_MANY_UPLOADS,
        );
      }
      throw new DomainError(UPLOADS_BUSY, 'The server is busy with other uploads. Please try again shortly.', 503, {
        retryAfterSeconds: UPLOAD_RETRY_AFTER_SECONDS,
      });
    }
    // The response's 'close' covers a finished answer and a client gone mid-body; the socket's covers a response that never
    // got it (a pipelined request waiting behind another). Either one gives the bytes back, once.
    const socket = req.socket;
    const release = () => {
      admission.release();
      res.off('close', release);
      socket.off('close', release);
    };
    res.once('close', release);
    socket.once('close', release);
    // The client went away while the guard ran: no 'close' will come again.
    if (res.destroyed || socket.destroyed) release();
    return next.handle();
  }
}
