import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { copyText } from '../copy-button';
import { findPost, loadPost, POSTS, readingTime } from '../posts/posts';
import { useDocumentTitle } from '../../layout/use-document-title';

export function PostPage() {
  const { id } = useParams();
  const { t, i18n } = useTranslation(['public', 'posts']);
  const post = findPost(id, t);
  useDocumentTitle(post ? post.title : t('post.notFound'));

  if (!post) {
    return (
      <div className="container page page-narrow not-found">
        <h1>{t('post.notFound')}</h1>
        <Link to="/" className="btn btn--primary">
          {t('post.backHome')}
        </Link>
      </div>
    );
  }

  const share = async () => {
    const url = window.location.href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: post.title, url });
        return;
      } catch (err) {
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await copyText(url);
      window.alert(t('post.linkCopied'));
    } catch (err) {
      console.warn('Copy failed', err);
    }
  };

  const others = POSTS.filter((p) => p.unique_id !== post.unique_id)
    .slice(0, 2)
    .map((p) => loadPost(p, t));
  const date = new Date(`${post.date}T00:00:00`).toLocaleDateString(i18n.language, { year: 'numeric', month: 'long', day: 'numeric' });

  return (
    <div className="container page">
      <article className="post page-narrow">
        <header className="post__header">
          <h1>{post.title}</h1>
          <p className="post__meta">
            <span>{post.author}</span>
            <span aria-hidden="true">·</span>
            <time dateTime={post.date}>{date}</time>
            <span aria-hidden="true">·</span>
            <span data-testid="reading-time">{t('post.readingTime', { count: readingTime(post.sections) })}</span>
          </p>
          <button type="button" className="btn btn--outline btn--sm" onClick={share}>
            {t('post.share')}
          </button>
        </header>
        <img className="post__image" src={post.image} alt="" width={1200} height={600} />
        {post.sections.map((s, i) => (
          <section key={i} className="prose">
            {s.subtitle && <h2>{s.subtitle}</h2>}
            {s.paragraphs.map((p, j) => (
              <p key={j}>{p}</p>
            ))}
          </section>
        ))}
        <div className="post__cta">
          <Link to="/dashboard" className="btn btn--primary">
            {t('post.startBuilding')}
          </Link>
          <Link to="/models" className="btn btn--outline">
            {t('post.exploreAgents')}
          </Link>
        </div>
      </article>

      {others.length > 0 && (
        <section className="more-posts" aria-labelledby="more-posts-heading">
          <h2 id="more-posts-heading">{t('post.morePosts')}</h2>
          <div className="more-posts__grid">
            {others.map((o) => (
              <Link key={o.unique_id} to={`/post/${o.unique_id}`} className="card post-card">
                <img src={o.image} alt="" width={600} height={300} />
                <span className="post-card__title">{o.title}</span>
                <span className="muted">{o.excerpt}</span>
              </Link>
            ))}
          </div>
        </section>
      )}
    </div>
  );
}
