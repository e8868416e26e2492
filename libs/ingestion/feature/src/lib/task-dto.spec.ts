import { estimateSeconds } from './start-processing/start-processing.use-case';
import { toTaskDto } from './task-dto';

describe('task mapping', () => {
  it('maps a task to the TaskDto of the API (snake_case, clamped progress, ISO date)', () => {
    const dto = toTaskDto({
      id: 't1',
      agentId: 'a1',
      ownerId: 'o',
      mode: 'create',
      srcLang: 'es',
      tgtLang: 'gn',
      status: 'PROCESSING',
      progress: 104.6,
      message: 'm',
      estimatedProcessingTime: 12,
      totalPages: 3,
      totalFiles: 2,
      successfulFiles: 1,
      textBlocksExtracted: 40,
      errors: [{ file: 'x.bmp', message: 'x.bmp: Unsupported file type' }],
      pairsVersion: null,
      pairCount: 0,
      createdAt: new Date('2026-01-02T03:04:05Z'),
    });
    expect(dto).toEqual({
      id: 't1',
      status: 'PROCESSING',
      progress: 100,
      message: 'm',
      estimated_processing_time: 12,
      total_pages: 3,
      total_files: 2,
      successful_files: 1,
      text_blocks_extracted: 40,
      created_at: '2026-01-02T03:04:05.000Z',
      model_id: 'a1',
      errors: [{ file: 'x.bmp', message: 'x.bmp: Unsupported file type' }],
    });
  });

  it('estimates more time for PDFs than for text of the same size', () => {
    const mb = 1024 * 1024;
    expect(estimateSeconds([{ filename: 'a.json', size: 0 }])).toBe(5);
    expect(estimateSeconds([{ filename: 'a.pdf', size: 4 * mb }])).toBeGreaterThan(estimateSeconds([{ filename: 'a.json', size: 4 * mb }]));
  });
});
