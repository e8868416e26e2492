import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CAROUSEL_INTERVAL_MS } from '../../config';
import { loadPost, POSTS } from '../posts/posts';

/** Next carousel index: cycles 0 → last → 0. */
export function nextIndex(index: number, count: number): number {
  return count > 0 ? (index + 1) % count : 0;
}

/**
 * Posts carousel: auto-advances every 4 s, paused while the pointer or the keyboard focus is in it (a reader is
 * not moved away from the slide they are on); dot buttons jump; a post opens with a full page navigation.
 */
export function PostsCarousel() {
  const { t } = useTranslation(['public', 'posts']);
  const posts = POSTS.map((p) => loadPost(p, t));
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const paused = hovered || focused;

  useEffect(() => {
    if (posts.length < 2 || paused) return;
    const id = window.setInterval(() => setIndex((i) => nextIndex(i, posts.length)), CAROUSEL_INTERVAL_MS);
    return () => window.clearInterval(id);
  }, [index, posts.length, paused]);

  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={t('landing.carousel.label')}
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div className="carousel__viewport">
        {posts.map((post, i) => (
          <article
            key={post.unique_id}
            className={`carousel__slide${i === index ? ' is-active' : ''}`}
            aria-roledescription="slide"
            aria-label={t('landing.carousel.slide', { n: i + 1, total: posts.length })}
            aria-hidden={i !== index}
            data-testid="carousel-slide"
          >
            <img src={post.image} alt="" width={1200} height={600} />
            <div className="carousel__body">
              <p className="eyebrow">{t('landing.carousel.eyebrow')}</p>
              <h3 className="carousel__title">{post.title}</h3>
              <a className="btn btn--primary btn--sm" href={`/post/${post.unique_id}`} tabIndex={i === index ? 0 : -1}>
                {t('landing.carousel.read')}
              </a>
            </div>
          </article>
        ))}
      </div>
      <div className="carousel__dots">
        {posts.map((post, i) => (
          <button
            key={post.unique_id}
            type="button"
            className={`carousel__dot${i === index ? ' is-active' : ''}`}
            aria-label={t('landing.carousel.goTo', { n: i + 1 })}
            aria-current={i === index}
            onClick={() => setIndex(i)}
          />
        ))}
      </div>
    </section>
  );
}
