import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { TranslateFileStartResponse, TranslateFileTaskDto } from '@gaia/contracts';
import { Auth, CurrentPrincipal } from '../auth/auth.guard';
import { clientIp, type GatewayRequest, type Principal } from '../auth/principal';
import { IdempotencyInterceptor } from '../http/idempotency.interceptor';
import { UploadBudgetInterceptor } from '../http/upload-budget.interceptor';
import { S } from '../openapi/schemas';
import { SB } from '../openapi/translate-batch-file.schemas';
import { TranslateFileUseCase, type UploadedTextFile } from './translate-file.use-case';

@ApiTags('translate')
@Controller('api/translate/file')
export class TranslateFileController {
  constructor(private readonly files: TranslateFileUseCase) {}

  @Post()
  @Auth('key')
  @HttpCode(200)
  @UseInterceptors(UploadBudgetInterceptor, FileInterceptor('file'), IdempotencyInterceptor)
  @ApiConsumes('multipart/form-data')
  @ApiHeader({ name: 'X-API-Key', required: false, description: 'Your API key (the session cookie works too; not the public translator key)' })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'A repeat replays the answer (one task)' })
  @ApiOperation({
    summary: 'Translate a TXT, CSV/TSV, TMX or XLIFF 1.2/2.0 file into the same format with the targets filled (a task with progress)',
    description:
      'TXT: every non-blank line. CSV/TSV: the first row is a header; `column` (name or 0-based index, default the first) is translated into the column named after tgt_lang. ' +
      'TMX: a target <tuv> per <tu>. XLIFF: a <target> per <source>. Each segment is metered like one translation; a segment over the limits keeps an empty target. ' +
      'Progress: GET /api/translate/file/status and Socket.IO `translate_file_progress`; result: GET /api/translate/file/download.',
  })
  @ApiBody({ schema: SB.translateFileUpload })
  @ApiResponse({ status: 200, schema: SB.translateFileStart })
  @ApiResponse({ status: 400, schema: S.error, description: 'Missing fields, unsupported or empty file, unknown column' })
  @ApiResponse({ status: 401, schema: S.error })
  @ApiResponse({ status: 403, schema: S.error, description: 'The public translator key' })
  @ApiResponse({ status: 404, schema: S.error, description: "'Model not found.'" })
  @ApiResponse({ status: 413, schema: S.error, description: 'File over 2 MB' })
  @ApiResponse({ status: 429, schema: S.error, description: 'Too many uploads of this account in progress (Retry-After)' })
  @ApiResponse({ status: 503, schema: S.error, description: 'The server holds too many uploads at once (Retry-After)' })
  start(
    @CurrentPrincipal() p: Principal,
    @UploadedFile() file: UploadedTextFile | undefined,
    @Body() body: Record<string, unknown>,
    @Req() req: GatewayRequest,
  ): Promise<TranslateFileStartResponse> {
    return this.files.start(p, clientIp(req), file, body ?? {});
  }

  @Get('status')
  @Auth('key')
  @ApiOperation({ summary: 'Progress of a file translation (its owner only)' })
  @ApiQuery({ name: 'task_id', required: true })
  @ApiResponse({ status: 200, schema: SB.translateFileTask })
  @ApiResponse({ status: 404, schema: S.error, description: "'Task not found.'" })
  status(@CurrentPrincipal() p: Principal, @Query('task_id') taskId: unknown): Promise<{ task: TranslateFileTaskDto }> {
    return this.files.status(p, taskId);
  }

  @Get('download')
  @Auth('key')
  @ApiOperation({ summary: 'The translated file (same format, targets filled) once the task is COMPLETED' })
  @ApiQuery({ name: 'task_id', required: true })
  @ApiProduces('application/octet-stream')
  @ApiResponse({
    status: 200,
    description: 'The file, named <name>.<tgt_lang>.<ext>',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({ status: 404, schema: S.error, description: "'Task not found.'" })
  @ApiResponse({ status: 409, schema: S.error, description: 'Not finished, or failed' })
  async download(@CurrentPrincipal() p: Principal, @Query('task_id') taskId: unknown, @Res() res: Response): Promise<void> {
    const f = await this.files.download(p, taskId);
    res.setHeader('Content-Type', f.contentType);
    // The quoted name is the ASCII fallback (a header carries no character beyond Latin-1: Guaraní ẽ/ỹ would
    // throw); browsers and the client read the exact UTF-8 name from filename*.
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${f.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`,
    );
    res.status(200).send(Buffer.from(f.bytes));
  }
}
