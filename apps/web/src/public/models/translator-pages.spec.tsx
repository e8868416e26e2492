import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18n from 'i18next';
import { agentDto, startApiServer, routeFetch, user, type ApiServer } from '../../test/api-server';
import { renderAt } from '../../test/render';
import { ModelDetailPage } from './model-detail-page';
import { ModelsPage } from './models-page';

let server: ApiServer;
let restore: () => void;

beforeEach(async () => {
  server = await startApiServer({
    publicAgents: [
      agentDto({ id: 'a-old', src_lang: 'aymara', tgt_lang: 'spanish', created_at: '2025-01-01T00:00:00Z' }),
      agentDto({ id: 'a-new', src_lang: 'quechua', tgt_lang: 'spanish', created_at: '2025-08-01T00:00:00Z', custom_prompt: 'Cusco Quechua' }),
      agentDto({ id: 'a-mid', src_lang: 'guarani', tgt_lang: 'spanish', created_at: '2025-05-01T00:00:00Z', custom_prompt: '' }),
      agentDto({ id: 'a-oldest', src_lang: 'shipibo', tgt_lang: 'spanish', created_at: '2024-01-01T00:00:00Z' }),
    ],
  });
  restore = routeFetch(server.origin);
});
afterEach(async () => {
  restore();
  server.release();
  await server.close();
});

const source = () => screen.getByPlaceholderText('Enter up to 50 words to translate...') as HTMLTextAreaElement;
const output = () => screen.getByTestId('translation-output');

describe('/models public translator', () => {
  it('translates with the public key, streams the result, then shows Translation complete and the response time', async () => {
    renderAt(<ModelsPage />, { route: '/models', path: '/models' });
    const select = (await screen.findByLabelText('Language pair')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'a-new' } });
    const button = screen.getByRole('button', { name: 'Translate' });
    expect(button).toBeDisabled();
    fireEvent.change(source(), { target: { value: '   ' } });
    expect(button).toBeDisabled();

    server.holdBeforeLast = true;
    fireEvent.change(source(), { target: { value: 'Allinllachu kashanki' } });
    fireEvent.click(button);
    await waitFor(() => expect(output()).toHaveTextContent('Hola mundo'));
    expect(screen.getByRole('button', { name: 'Translating...' })).toBeDisabled();
    expect(screen.getByTestId('translation-status')).toHaveTextContent('Retrieving examples...');
    act(() => server.release());

    expect(await screen.findByText('Translation complete')).toBeInTheDocument();
    expect(screen.getByText('Response time: 1.5 s')).toBeInTheDocument();
    expect(server.translateCalls[0].body).toMatchObject({
      text: 'Allinllachu kashanki',
      model_id: 'a-new',
      src_lang: 'quechua',
      tgt_lang: 'spanish',
      stream: true,
    });
    expect(screen.getByRole('link', { name: 'See Agent Details' })).toHaveAttribute('href', '/models/a-new');
  });

  it("lists the 3 newest agents under 'Latest Agents'", async () => {
    renderAt(<ModelsPage />, { route: '/models', path: '/models' });
    const heading = await screen.findByRole('heading', { name: 'Latest Agents' });
    const links = Array.from(heading.parentElement!.querySelectorAll('ul a')).map((a) => a.getAttribute('href'));
    expect(links).toEqual(['/models/a-new', '/models/a-mid', '/models/a-old']);
  });

  it('swapping languages sends the reversed pair and clears text and result; changing agent resets the result', async () => {
    renderAt(<ModelsPage />, { route: '/models', path: '/models' });
    const select = (await screen.findByLabelText('Language pair')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'a-new' } });
    fireEvent.change(source(), { target: { value: 'Hola' } });
    fireEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await screen.findByText('Translation complete');

    fireEvent.click(screen.getByRole('button', { name: 'Swap languages' }));
    expect(source().value).toBe('');
    expect(screen.queryByText('Translation complete')).not.toBeInTheDocument();
    expect(output()).toHaveTextContent('Your translation will appear here.');
    expect(screen.getByTestId('source-language')).toHaveTextContent('Spanish');

    fireEvent.change(source(), { target: { value: 'Hola' } });
    fireEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await screen.findByText('Translation complete');
    expect(server.translateCalls[1].body).toMatchObject({ src_lang: 'spanish', tgt_lang: 'quechua' });

    fireEvent.change(select, { target: { value: 'a-mid' } });
    expect(screen.queryByText('Translation complete')).not.toBeInTheDocument();
    expect(screen.getByTestId('source-language')).toHaveTextContent('Guarani');
  });

  it("shows 'Error: {message}' when the server refuses", async () => {
    server.translateLines = ['data: {"type":"error","message":"Rate limit reached."}'];
    renderAt(<ModelsPage />, { route: '/models', path: '/models' });
    await screen.findByLabelText('Language pair');
    fireEvent.change(source(), { target: { value: 'Hola' } });
    fireEvent.click(screen.getByRole('button', { name: 'Translate' }));
    expect(await screen.findByText('Error: Rate limit reached.')).toBeInTheDocument();
  });

  it('offers a signed-in owner or editor "Suggest a better translation" for their agent (in Spanish too), and nobody else', async () => {
    const translateOnce = async () => {
      const select = (await screen.findByLabelText(/Language pair|Par de idiomas/)) as HTMLSelectElement;
      fireEvent.change(select, { target: { value: 'a-new' } });
      fireEvent.change(source(), { target: { value: 'Allinllachu' } });
      fireEvent.click(screen.getByRole('button', { name: /^(Translate|Traducir)$/ }));
      await screen.findByTestId('confidence-badge');
    };
    const anonymous = renderAt(<ModelsPage />, { route: '/models', path: '/models' });
    await translateOnce();
    expect(screen.queryByTestId('suggest-correction')).toBeNull();
    anonymous.unmount();

    server.user = user();
    renderAt(<ModelsPage />, { route: '/models', path: '/models' });
    await translateOnce();
    expect(await screen.findByRole('button', { name: 'Suggest a better translation' })).toBeInTheDocument();
    await act(() => i18n.changeLanguage('es'));
    expect(screen.getByRole('button', { name: 'Sugerir una traducción mejor' })).toBeInTheDocument();
    await act(() => i18n.changeLanguage('en'));
  });

  it("shows 'No public agents available' when there are none", async () => {
    server.publicAgents = [];
    renderAt(<ModelsPage />, { route: '/models', path: '/models' });
    expect(await screen.findByText('No public agents available')).toBeInTheDocument();
  });
});

describe('/models/{id} agent page', () => {
  it('counts words, clears text and result, and swaps with a reset', async () => {
    renderAt(<ModelDetailPage />, { route: '/models/:modelId', path: '/models/a-new' });
    expect(screen.getByText('Loading model details...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Quechua → Spanish' })).toBeInTheDocument();
    expect(screen.getByText('Cusco Quechua')).toBeInTheDocument();

    fireEvent.change(source(), { target: { value: 'Allinllachu kashanki' } });
    expect(screen.getByText('2/50 words')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await screen.findByText('Translation complete');
    expect(output()).toHaveTextContent('Hola mundo');

    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(source().value).toBe('');
    expect(screen.getByText('0/50 words')).toBeInTheDocument();
    expect(screen.queryByText('Translation complete')).not.toBeInTheDocument();

    fireEvent.change(source(), { target: { value: 'Hola' } });
    fireEvent.click(screen.getByRole('button', { name: 'Translate' }));
    await screen.findByText('Translation complete');
    fireEvent.click(screen.getByRole('button', { name: 'Swap languages' }));
    expect(source().value).toBe('');
    expect(screen.queryByText('Translation complete')).not.toBeInTheDocument();
    expect(screen.getByTestId('source-language')).toHaveTextContent('Spanish');
  });

  it("shows 'No description available' when the agent has no description", async () => {
    renderAt(<ModelDetailPage />, { route: '/models/:modelId', path: '/models/a-mid' });
    expect(await screen.findByText('No description available')).toBeInTheDocument();
  });

  it('shows the not-found view for an unknown agent', async () => {
    renderAt(<ModelDetailPage />, { route: '/models/:modelId', path: '/models/missing' });
    expect(await screen.findByRole('heading', { name: 'Agent not found' })).toBeInTheDocument();
    expect(screen.getByText('The requested translation agent could not be found.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go back' })).toBeInTheDocument();
  });
});

describe('/models language-pair search', () => {
  it('filters the pairs and selects the first match when the chosen agent is filtered out', async () => {
    renderAt(<ModelsPage />, { route: '/models', path: '/models' });
    const select = (await screen.findByLabelText('Language pair')) as HTMLSelectElement;
    expect(select.options).toHaveLength(4);
    fireEvent.change(screen.getByLabelText('Search language pairs'), { target: { value: 'guar' } });
    expect(Array.from(select.options).map((o) => o.value)).toEqual(['a-mid']);
    expect(select.value).toBe('a-mid');
    expect(screen.getByTestId('source-language')).toHaveTextContent('Guarani');
    fireEvent.change(screen.getByLabelText('Search language pairs'), { target: { value: 'zzz' } });
    expect(screen.getByRole('option', { name: 'No agents match your search' })).toBeInTheDocument();
  });
});
