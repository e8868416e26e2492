import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { renderAt } from '../../test/render';
import { PostPage } from '../post/post-page';
import { countWords } from '../translator/word-limit';
import { findPost, POSTS, readingTime } from './posts';

const para = (n: number) => Array.from({ length: n }, () => 'word').join(' ');

describe('readingTime (words / 200, rounded up)', () => {
  it('rounds up partial minutes', () => {
    expect(readingTime([])).toBe(0);
    expect(readingTime([{ paragraphs: [para(1)] }])).toBe(1);
    expect(readingTime([{ paragraphs: [para(200)] }])).toBe(1);
    expect(readingTime([{ paragraphs: [para(150)] }, { subtitle: 'x', paragraphs: [para(51)] }])).toBe(2);
    expect(readingTime([{ paragraphs: [para(400)] }])).toBe(2);
    expect(readingTime([{ paragraphs: [para(401)] }])).toBe(3);
  });
});

describe('built-in posts', () => {
  it('has the two posts of 2025-08-16 and 2025-08-15', () => {
    expect(POSTS.map((p) => p.date)).toEqual(['2025-08-16', '2025-08-15']);
  });

  it('shows title, reading time computed from its paragraphs, and More Posts linking to the other post', async () => {
    const [first, second] = POSTS;
    renderAt(<PostPage />, { route: '/post/:id', path: `/post/${first.unique_id}` });
    const post = findPost(first.unique_id, i18n.t)!;
    const words = post.sections.flatMap((s) => s.paragraphs).reduce((n, p) => n + countWords(p), 0);
    expect(await screen.findByRole('heading', { level: 1, name: post.title })).toBeInTheDocument();
    expect(screen.getByTestId('reading-time')).toHaveTextContent(`${Math.ceil(words / 200)} min read`);
    expect(screen.getByRole('heading', { name: 'More Posts' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: new RegExp(findPost(second.unique_id, i18n.t)!.title) })).toHaveAttribute('href', `/post/${second.unique_id}`);
    expect(screen.getByRole('link', { name: 'Start Building' })).toHaveAttribute('href', '/dashboard');
    expect(screen.getByRole('link', { name: 'Explore Agents' })).toHaveAttribute('href', '/models');
  });

  it("shows 'Post not found' for an unknown id", async () => {
    renderAt(<PostPage />, { route: '/post/:id', path: '/post/nope' });
    expect(await screen.findByRole('heading', { name: 'Post not found' })).toBeInTheDocument();
  });
});
