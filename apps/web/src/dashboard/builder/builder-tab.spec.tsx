import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useApiServer } from '../../test/api-server';
import { renderDashboard } from '../test/render';
import { BuilderTab } from './builder-tab';

const server = useApiServer({ signedIn: true });

const submit = () => screen.getByRole('button', { name: 'Create agent' });
const pick = (...files: File[]) => fireEvent.change(screen.getByLabelText('Files *'), { target: { files } });

describe('Builder tab', () => {
  it('keeps submit disabled without files', () => {
    renderDashboard(<BuilderTab />);
    expect(submit()).toBeDisabled();
  });

  it("marks unsupported files with '{filename}: Unsupported file type' and does not count them", () => {
    renderDashboard(<BuilderTab />);
    pick(new File(['x'], 'notes.docx'));
    expect(screen.getByText('notes.docx: Unsupported file type')).toBeInTheDocument();
    expect(submit()).toBeDisabled();
    pick(new File(['[{"source":"a","target":"b"}]'], 'pairs.json'));
    expect(submit()).toBeEnabled();
    expect(screen.getAllByTestId('picked-file')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Remove notes.docx' }));
    expect(screen.queryByText('notes.docx: Unsupported file type')).toBeNull();
  });

  it("asks 'Please fill in all required fields' when a field is missing", () => {
    renderDashboard(<BuilderTab />);
    pick(new File(['[]'], 'pairs.json'));
    fireEvent.change(screen.getByLabelText(/Source language/), { target: { value: 'Quechua' } });
    fireEvent.change(screen.getByLabelText(/Target language/), { target: { value: 'Spanish' } });
    fireEvent.click(submit());
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all required fields');
    expect(server.received.some((r) => r.path === '/api/documents/process/')).toBe(false);
  });

  it('marks empty files', () => {
    renderDashboard(<BuilderTab />);
    pick(new File([], 'empty.json'));
    expect(screen.getByText('empty.json: The file is empty')).toBeInTheDocument();
  });
});
