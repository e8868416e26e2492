import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SourceBox } from './source-box';

function Harness() {
  const [value, setValue] = useState('');
  return <SourceBox id="s" label="Source" value={value} onChange={setValue} onClear={() => setValue('')} />;
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i + 1}`).join(' ');

describe('SourceBox', () => {
  it("counts words as 'n/50 words' and does not accept words beyond 50", () => {
    render(<Harness />);
    const box = screen.getByLabelText('Source') as HTMLTextAreaElement;
    expect(screen.getByText('0/50 words')).toBeInTheDocument();

    fireEvent.change(box, { target: { value: 'allin punchaw' } });
    expect(screen.getByText('2/50 words')).toBeInTheDocument();

    fireEvent.change(box, { target: { value: words(50) } });
    expect(screen.getByText('50/50 words')).toBeInTheDocument();
    fireEvent.change(box, { target: { value: `${words(50)} extra` } });
    expect(box.value).toBe(words(50));
    expect(screen.getByText('50/50 words')).toBeInTheDocument();

    fireEvent.change(box, { target: { value: words(75) } });
    expect(box.value).toBe(words(50));
  });

  it('clears the text with the Clear button', () => {
    render(<Harness />);
    const box = screen.getByLabelText('Source') as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: 'allin punchaw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(box.value).toBe('');
    expect(screen.getByText('0/50 words')).toBeInTheDocument();
  });
});
