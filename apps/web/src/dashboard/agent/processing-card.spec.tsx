import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { taskDto } from '../../test/api-server';
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
  it('learns the time left from the measured throughput, not from a fixed guess', () => {
    const task = (progress: number) => taskDto({ progress, estimated_processing_time: 60, created_at: new Date(created).toISOString() });
    const { rerender } = render(<ProcessingCard task={task(5)} now={at(1)} />);
    // One observation measures nothing yet: no "about 1 minute" for a job of seconds.
    expect(screen.getByTestId('processing-estimate')).toHaveTextContent('Measuring the time left…');
    rerender(<ProcessingCard task={task(35)} now={at(4)} />);
    // 30 points in 3 s: the 65 points left take 6.5 s.
    expect(screen.getByTestId('processing-estimate')).toHaveTextContent('About 7 seconds left');
    rerender(<ProcessingCard task={task(36)} now={at(124)} />);
    expect(screen.getByTestId('processing-estimate')).toHaveTextContent('About 5 minutes left');
  });
});
