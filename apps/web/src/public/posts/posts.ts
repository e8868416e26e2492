import type { TFunction } from 'i18next';
import { READING_WORDS_PER_MINUTE } from '../../config';
import { countWords } from '../translator/word-limit';

/** Built-in blog posts; their texts live in the `posts` i18n namespace under items.{unique_id}. */
export interface PostMeta {
  unique_id: string;
  date: string;
  image: string;
}

export interface PostSection {
  subtitle?: string;
  paragraphs: string[];
}

export interface Post extends PostMeta {
  title: string;
  author: string;
  excerpt: string;
  sections: PostSection[];
}

export const POSTS: PostMeta[] = [
  { unique_id: 'human-level-translation-no-resource-languages', date: '2025-08-16', image: '/images/posts/human-level.svg' },
  { unique_id: '500k-parallel-sentences-milestone', date: '2025-08-15', image: '/images/posts/milestone.svg' },
];

export function loadPost(meta: PostMeta, t: TFunction): Post {
  const base = `items.${meta.unique_id}`;
  return {
    ...meta,
    title: t(`${base}.title`, { ns: 'posts' }),
    author: t(`${base}.author`, { ns: 'posts' }),
    excerpt: t(`${base}.excerpt`, { ns: 'posts' }),
    sections: t(`${base}.sections`, { ns: 'posts', returnObjects: true }) as PostSection[],
  };
}

export function findPost(id: string | undefined, t: TFunction): Post | null {
  const meta = POSTS.find((p) => p.unique_id === id);
  return meta ? loadPost(meta, t) : null;
}

/** Minutes to read: words of all paragraphs divided by 200, rounded up. */
export function readingTime(sections: PostSection[], wordsPerMinute = READING_WORDS_PER_MINUTE): number {
  const words = sections.reduce((n, s) => n + s.paragraphs.reduce((m, p) => m + countWords(p), 0), 0);
  return Math.ceil(words / wordsPerMinute);
}
