import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentDto, routeFetch, startApiServer, type ApiServer } from '../../test/api-server';
import { renderAt } from '../../test/render';
import { DatasetsPage } from './datasets-page';

let server: ApiServer;
let restore: () => void;
beforeEach(async () => {
  server = await startApiServer({
    publicAgents: [agentDto({ id: 'ds-1', custom_prompt: 'Stories from Cusco' }), agentDto({ id: 'ds-2', src_lang: 'guarani' })],
  });
  restore = routeFetch(server.origin);
});
afterEach(async () => {
  restore();
  await server.close();
});

describe('/datasets', () => {
  it("shows 'Loading datasets...', then the public agents and their count", async () => {
    renderAt(<DatasetsPage />, { route: '/datasets', path: '/datasets' });
    expect(screen.getByText('Loading datasets...')).toBeInTheDocument();
    const select = await screen.findByLabelText('Public agent');
    expect(screen.getByTestId('public-agent-count')).toHaveTextContent('2');
    expect(screen.getByText('500,000+')).toBeInTheDocument();
    expect(select).toHaveTextContent('Quechua → Spanish — Stories from Cusco');
  });

  it("asks 'Please select an agent first' without a selection", async () => {
    renderAt(<DatasetsPage />, { route: '/datasets', path: '/datasets' });
    await screen.findByLabelText('Public agent');
    fireEvent.click(screen.getByRole('button', { name: 'Download Dataset' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please select an agent first');
  });

  it("shows the agent id and reports 'Failed to download dataset: {message}' from the server", async () => {
    renderAt(<DatasetsPage />, { route: '/datasets', path: '/datasets' });
    fireEvent.change(await screen.findByLabelText('Public agent'), { target: { value: 'ds-2' } });
    expect(screen.getByText('ds-2')).toBeInTheDocument();
    server.fail.set('GET /api/models/download', [404, { error: 'Model not found.' }]);
    fireEvent.click(screen.getByRole('button', { name: 'Download Dataset' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to download dataset: Model not found.');
  });

  it("shows 'No public agents available' when there are none", async () => {
    server.publicAgents = [];
    renderAt(<DatasetsPage />, { route: '/datasets', path: '/datasets' });
    expect(await screen.findByText('No public agents available')).toBeInTheDocument();
  });
});
