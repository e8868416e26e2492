import type { AgentDto } from '@gaia/contracts';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { agentDto, taskDto, user, useApiServer } from '../../test/api-server';
import { renderDashboard } from '../test/render';
import { TestProviders } from '../../test/render';
import { AgentPage, AgentView } from './agent-page';

const server = useApiServer({ signedIn: true });

async function open(uid: string) {
  const r = renderDashboard(<AgentPage />, { path: '/dashboard/agent-1', route: '/dashboard/:modelId' });
  await screen.findByText(`signed-in:${uid}`);
  await screen.findByTestId('pair-badge');
  return r;
}

describe('owner agent page', () => {
  it('shows the owner the pair badge, the test translator, the visibility toggle and delete', async () => {
    server.owned = [agentDto()];
    await open('owner-1');
    expect(screen.getByTestId('pair-badge')).toHaveTextContent('Quechua');
    expect(screen.getByTestId('pair-badge')).toHaveTextContent('Spanish');
    expect(screen.getByTestId('test-translator')).toBeInTheDocument();
    expect(screen.getByRole('switch')).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByRole('button', { name: 'Delete agent' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download files' })).toBeInTheDocument();
    expect(screen.getByTestId('agent-curl')).toHaveTextContent('"model_id":"agent-1"');
  });

  it('hides the visibility toggle and delete from an editor, who can still edit', async () => {
    server.user = user({ uid: 'editor-1', email: 'eva@example.org' });
    server.shared = [agentDto({ sharedWithEmails: ['eva@example.org'] })];
    await open('editor-1');
    expect(screen.getByTestId('test-translator')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByTestId('visibility-card')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete agent' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Edit Agent' }));
    fireEvent.change(screen.getByLabelText('Agent description *'), { target: { value: 'Edited by Eva' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText(/Agent updated successfully!/);
    expect(server.received.find((r) => r.method === 'PATCH')?.body).toMatchObject({ custom_prompt: 'Edited by Eva' });
    expect(screen.getByTestId('agent-description')).toHaveTextContent('Edited by Eva');
  });

  it('tests the agent with the session: the translation streams in, sent with the CSRF echo and no API key', async () => {
    server.owned = [agentDto()];
    document.cookie = 'gaia_csrf=csrf-token';
    try {
      await open('owner-1');
      fireEvent.change(screen.getByLabelText(/^Text in Quechua/), { target: { value: 'Allinllachu' } });
      fireEvent.click(screen.getByRole('button', { name: 'Translate' }));
      const translator = within(screen.getByTestId('test-translator'));
      await waitFor(() => expect(translator.getByTestId('translation-output')).toHaveTextContent('Hola'));
      const call = server.received.find((r) => r.path === '/api/translate/');
      expect(call?.body).toMatchObject({ text: 'Allinllachu', model_id: 'agent-1', src_lang: 'quechua', tgt_lang: 'spanish', stream: true });
      expect(call?.headers['x-csrf-token']).toBe('csrf-token');
      expect(call?.headers['x-api-key']).toBeUndefined();
      expect(server.received.some((r) => r.path === '/api/public/config')).toBe(false);
    } finally {
      document.cookie = 'gaia_csrf=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
    }
  });

  it('toggles visibility (disabled while saving) and labels it Public', async () => {
    server.owned = [agentDto()];
    await open('owner-1');
    const toggle = screen.getByRole('switch');
    fireEvent.click(toggle);
    expect(toggle).toBeDisabled();
    await waitFor(() => expect(toggle).toHaveAttribute('aria-checked', 'true'));
    expect(toggle).toBeEnabled();
    expect(screen.getByTestId('visibility-label')).toHaveTextContent('Public');
    expect(server.received.find((r) => r.path === '/api/agents/agent-1/visibility')?.body).toEqual({ public: true });
  });

  it("asks 'Are you sure you want to delete this model? This action cannot be undone.' and goes to /dashboard", async () => {
    server.owned = [agentDto()];
    const { router } = await open('owner-1');
    fireEvent.click(screen.getByRole('button', { name: 'Delete agent' }));
    expect(screen.getByRole('alertdialog')).toHaveTextContent('Are you sure you want to delete this model? This action cannot be undone.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(server.received.some((r) => r.path === '/api/delete-model/')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete agent' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete agent' }).at(-1)!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(server.owned).toEqual([]);
  });

  it('shows the server error when deleting fails and stays on the page', async () => {
    server.owned = [agentDto()];
    server.fail.set('POST /api/delete-model/', [500, {}]);
    const { router } = await open('owner-1');
    fireEvent.click(screen.getByRole('button', { name: 'Delete agent' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete agent' }).at(-1)!);
    expect(await screen.findByTestId('delete-error')).toHaveTextContent('Failed to delete model');
    expect(router.state.location.pathname).toBe('/dashboard/agent-1');
    expect(screen.getByRole('button', { name: 'Delete agent' })).toBeEnabled();
  });

  it("refuses other files in Edit Agent: 'Invalid file types: … Please upload JSON, PDF or TXT files only.'", async () => {
    server.owned = [agentDto()];
    await open('owner-1');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Agent' }));
    const input = screen.getByLabelText('Add files');
    fireEvent.change(input, { target: { files: [new File(['{}'], 'pairs.json'), new File(['a,b'], 'pairs.csv'), new File(['x'], 'scan.png')] } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid file types: pairs.csv, scan.png. Please upload JSON, PDF or TXT files only.');
    expect(server.received.some((r) => r.path === '/api/update-model/' || r.method === 'PATCH')).toBe(false);
  });

  it('requires languages and description in Edit Agent', async () => {
    server.owned = [agentDto()];
    await open('owner-1');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Agent' }));
    fireEvent.change(screen.getByLabelText('Source language *'), { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all required fields');
  });

  it('replaces the translator with the progress card while documents process, then shows FAILED', async () => {
    server.owned = [agentDto({ processing_task_id: 'task-1', processing_status: 'PROCESSING', document_count: 0, text_blocks_extracted: 0, pair_count: 0 })];
    server.tasks.set('task-1', taskDto({ progress: 40, estimated_processing_time: 150, successful_files: 1, text_blocks_extracted: 7743 }));
    await open('owner-1');
    expect(screen.getByTestId('processing-card')).toBeInTheDocument();
    expect(screen.queryByTestId('test-translator')).toBeNull();
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Document processing progress' })).toHaveAttribute('aria-valuenow', '40'));
    // One source for the counts while processing: the header, the Data card and the progress card agree.
    expect(screen.getByTestId('processing-card')).toHaveTextContent('7,743 text blocks extracted');
    expect(screen.getByTestId('pair-count')).toHaveTextContent('7,743 sentence pairs');
    expect(screen.getByTestId('text-block-count')).toHaveTextContent('7,743');
    expect(screen.getByTestId('document-count')).toHaveTextContent('1');
    // A single progress update measures no throughput yet: no fixed "about 3 minutes".
    expect(screen.getByTestId('processing-estimate')).toHaveTextContent('Measuring the time left…');

    server.tasks.set('task-1', taskDto({ status: 'FAILED', progress: 100, message: 'pairs.json: no sentence pairs found' }));
    expect(await screen.findByTestId('processing-error', {}, { timeout: 5000 })).toHaveTextContent(
      'Document processing failed: pairs.json: no sentence pairs found',
    );
    expect(screen.getByTestId('test-translator')).toBeInTheDocument();
  });

  it('clears the task on COMPLETED and brings the translator back', async () => {
    server.owned = [agentDto({ processing_task_id: 'task-1', processing_status: 'PROCESSING' })];
    server.tasks.set('task-1', taskDto({ status: 'COMPLETED', progress: 100, successful_files: 1 }));
    await open('owner-1');
    // The list still says PROCESSING (a read from before the end): the page settles on the translator anyway and
    // never follows the finished task again.
    await waitFor(() => {
      expect(screen.getByTestId('test-translator')).toBeInTheDocument();
      expect(screen.queryByTestId('processing-card')).toBeNull();
    });
    const taskReads = () => server.received.filter((r) => r.path.includes('task-1')).length;
    const settled = taskReads();
    fireEvent.focus(window);
    await screen.findByTestId('test-translator');
    expect(taskReads()).toBe(settled);
    expect(screen.queryByTestId('processing-card')).toBeNull();
    expect(screen.queryByTestId('processing-error')).toBeNull();
  });

  it('shows the failure the agent record reports after the page opened, and drops it once the record recovers', async () => {
    const view = (agent: AgentDto) => <AgentView agent={agent} owner onDeleted={() => undefined} />;
    const { rerender } = render(view(agentDto()), {
      wrapper: ({ children }) => (
        <TestProviders>
          <MemoryRouter>{children}</MemoryRouter>
        </TestProviders>
      ),
    });
    expect(screen.queryByTestId('processing-error')).toBeNull();
    // A build this page never followed failed (an agent_updated push or a later read of the agent).
    rerender(view(agentDto({ processing_status: 'FAILED', processing_error: 'pairs.json: no sentence pairs found' })));
    expect(screen.getByTestId('processing-error')).toHaveTextContent('Document processing failed: pairs.json: no sentence pairs found');
    rerender(view(agentDto()));
    expect(screen.queryByTestId('processing-error')).toBeNull();
  });

  it("shows 'Agent not found' for an unknown agent", async () => {
    renderDashboard(<AgentPage />, { path: '/dashboard/nope', route: '/dashboard/:modelId' });
    expect(await screen.findByText('Agent not found')).toBeInTheDocument();
    expect(screen.getByText('The requested translation agent could not be found.')).toBeInTheDocument();
  });
});
