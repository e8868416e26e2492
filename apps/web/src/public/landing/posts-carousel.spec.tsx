import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { POSTS } from '../posts/posts';
import { nextIndex, PostsCarousel } from './posts-carousel';

const activeIndex = () => screen.getAllByTestId('carousel-slide').findIndex((s) => s.classList.contains('is-active'));

describe('posts carousel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('cycles 0 → last → 0', () => {
    expect(nextIndex(0, 3)).toBe(1);
    expect(nextIndex(2, 3)).toBe(0);
    expect(nextIndex(0, 0)).toBe(0);
  });

  it('auto-advances every 4 seconds and wraps around', () => {
    render(<PostsCarousel />);
    expect(POSTS.length).toBe(2);
    expect(activeIndex()).toBe(0);
    act(() => vi.advanceTimersByTime(3999));
    expect(activeIndex()).toBe(0);
    act(() => vi.advanceTimersByTime(1));
    expect(activeIndex()).toBe(1);
    act(() => vi.advanceTimersByTime(4000));
    expect(activeIndex()).toBe(0);
  });

  it('jumps with the dot buttons and restarts the 4 s interval', () => {
    render(<PostsCarousel />);
    act(() => vi.advanceTimersByTime(3000));
    fireEvent.click(screen.getByRole('button', { name: 'Go to post 2' }));
    expect(activeIndex()).toBe(1);
    act(() => vi.advanceTimersByTime(3999));
    expect(activeIndex()).toBe(1);
    act(() => vi.advanceTimersByTime(1));
    expect(activeIndex()).toBe(0);
  });

  it('pauses while the pointer or the keyboard focus is in it, and resumes after', () => {
    render(<PostsCarousel />);
    const carousel = screen.getByRole('region', { name: /./ });
    fireEvent.pointerOver(carousel);
    act(() => vi.advanceTimersByTime(10_000));
    expect(activeIndex()).toBe(0);
    fireEvent.pointerOut(carousel, { relatedTarget: document.body });
    act(() => vi.advanceTimersByTime(4000));
    expect(activeIndex()).toBe(1);

    act(() => screen.getByRole('button', { name: 'Go to post 1' }).focus());
    expect(activeIndex()).toBe(1);
    act(() => vi.advanceTimersByTime(10_000));
    expect(activeIndex()).toBe(1);
    act(() => screen.getByRole('button', { name: 'Go to post 1' }).blur());
    act(() => vi.advanceTimersByTime(4000));
    expect(activeIndex()).toBe(0);
  });

  it('opens a post with a full page link to /post/{id}', () => {
    render(<PostsCarousel />);
    const read = screen.getAllByRole('link', { name: 'Read' })[0];
    expect(read.tagName).toBe('A');
    expect(read).toHaveAttribute('href', `/post/${POSTS[0].unique_id}`);
  });
});
