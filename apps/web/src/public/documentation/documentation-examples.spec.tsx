import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DocumentationPage } from './documentation-page';
import { cliExample, clientExample, curlExample } from './examples';

describe('documentation examples', () => {
  it('shows cURL, @gaia/client and the gaia-translate CLI from the example files the e2e suite runs, for this origin', () => {
    render(<DocumentationPage />);
    const origin = window.location.origin;
    const code = Array.from(document.querySelectorAll('pre code')).map((c) => c.textContent);
    expect(code).toEqual(expect.arrayContaining([curlExample(origin), clientExample(origin), cliExample(origin)]));
    expect(clientExample(origin)).toContain(`new GaiaClient({ baseUrl: '${origin}', apiKey: 'YOUR_API_KEY'`);
    expect(cliExample(origin)).toContain(`npx gaia-translate --url ${origin} --key YOUR_API_KEY --agent YOUR_MODEL_ID < phrases.txt > phrases.es.txt`);
    expect(curlExample(origin)).toContain(`curl -N -X POST ${origin}/api/translate/`);
    expect(screen.getByText('@gaia/client (JavaScript / TypeScript)')).toBeInTheDocument();
    expect(screen.getByText('CLI (gaia-translate)')).toBeInTheDocument();
  });
});
