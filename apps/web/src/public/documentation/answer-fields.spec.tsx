import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatResponseTime } from '../../lib/response-time';
import { englishAfterEach, renderDocumentation } from './render-documentation';
import { MEASURED } from './measured';

describe('documentation: explain, confidence, explanation and quality', () => {
  englishAfterEach();

  it('describes the explain parameter and the confidence, explanation and quality fields, in English and Spanish', async () => {
    const docs = renderDocumentation();
    expect(screen.getByText('explain')).toBeInTheDocument();
    const fields = screen.getByTestId('docs-answer-fields');
    expect(within(fields).getByText('confidence').closest('div')).toHaveTextContent('calibrated on sentence pairs held out');
    expect(within(fields).getByText('explanation').closest('div')).toHaveTextContent('examples (source, target, score');
    expect(within(fields).getByText('quality').closest('div')).toHaveTextContent('no-resource, tiny, very-low, low, medium, high');
    await docs.inSpanish();
    expect(within(screen.getByTestId('docs-answer-fields')).getByText('confidence').closest('div')).toHaveTextContent(
      'calibrada con pares de oraciones apartados',
    );
  });

  it("says what the LLM engine's confidence means (not calibrated) and describes quality_summary of the owner's list, in English and Spanish", async () => {
    const docs = renderDocumentation();
    const fields = screen.getByTestId('docs-answer-fields');
    expect(within(fields).getByText('confidence (engine: llm)').closest('div')).toHaveTextContent('not calibrated');
    expect(within(fields).getByText('quality_summary').closest('div')).toHaveTextContent('GET /api/agents/mine');
    await docs.inSpanish();
    expect(within(screen.getByTestId('docs-answer-fields')).getByText('confidence (engine: llm)').closest('div')).toHaveTextContent('no está calibrada');
  });

  it('says the agent is ready at the upload-to-ready figure and its quality report follows (measured after ready), in English and Spanish', async () => {
    const docs = renderDocumentation();
    expect(screen.getByTestId('measured-upload-to-ready')).toHaveTextContent(
      `; the quality report follows ${formatResponseTime(MEASURED.uploadToReady.qualityReportAfterSeconds, 'en')} later`,
    );
    expect(screen.getByTestId('measured-upload-to-ready')).not.toHaveTextContent('including the quality report');
    await docs.inSpanish();
    expect(screen.getByTestId('measured-upload-to-ready')).toHaveTextContent(
      `el informe de calidad llega ${formatResponseTime(MEASURED.uploadToReady.qualityReportAfterSeconds, 'es')} después`,
    );
  });
});
