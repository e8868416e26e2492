import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { taskDto } from '../test/dashboard-server';
import { ProcessingCard } from './processing-card';

const created = Date.parse('2025-08-21T10:00:00.000Z');
const at = (seconds: number) => () => created + seconds * 1000;
const bar = () => screen.getByRole('progressbar', { name: 'Document processing progress' });

describe('ProcessingCard', () => {
  it('shows the time estimate when it is ahead of the server (elapsed / estimated)', () => {
    render(<ProcessingCard task={taskDto({ progress: 10, estimated_processing_time: 200, created_at: new Date(created).toISOString() })} now={at(100)} />);
    expect(bar()).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByTestId('processing-percent')).toHaveTextContent('50%');
  });
  it('caps the time estimate at 95%', () => {
    render(<ProcessingCard task={taskDto({ progress: 10, estimated_processing_time: 60, created_at: new Date(created).toISOString() })} now={at(3600)} />);
    expect(bar()).toHaveAttribute('aria-valuenow', '95');
  });
  it('shows the server progress when it is ahead', () => {
    render(<ProcessingCard task={taskDto({ progress: 70, estimated_processing_time: 600, created_at: new Date(created).toISOString() })} now={at(60)} />);
    expect(bar()).toHaveAttribute('aria-valuenow', '70');
  });
  it('shows the estimate in minutes, rounded up', () => {
    render(<ProcessingCard task={taskDto({ estimated_processing_time: 61, created_at: new Date(created).toISOString() })} now={at(0)} />);
    expect(screen.getByTestId('processing-estimate')).toHaveTextContent('Estimated time: about 2 minutes');
  });
  it('says 1 minute in the singular', () => {
    render(<ProcessingCard task={taskDto({ estimated_processing_time: 45, created_at: new Date(created).toISOString() })} now={at(0)} />);
    expect(screen.getByTestId('processing-estimate')).toHaveTextContent('Estimated time: about 1 minute');
  });
});
