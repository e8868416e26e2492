import type { PublicCorpusDto } from '@gaia/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { importPublicCorpus } from '../../api/corpora-api';
import { publicCorporaQuery } from '../../api/queries';
import { serverErrorText } from '../../i18n/server-error';
import { useDashboardData } from '../lib/dashboard-data';
import { formatNumber } from '../lib/format';

const BYTES_PER_MB = 1024 * 1024;

/** Builder "Find public data": public corpora of a language pair, imported into a new agent or one of the owner's. */
export function FindPublicData() {
  const { t, i18n } = useTranslation('corpora');
  const { owned, reload } = useDashboardData();
  const [src, setSrc] = useState('');
  const [tgt, setTgt] = useState('');
  const [into, setInto] = useState('');
  /** The pair last searched for (the query runs for it). */
  const [pair, setPair] = useState<{ src: string; tgt: string } | null>(null);
  const found = useQuery({ ...publicCorporaQuery(pair?.src ?? '', pair?.tgt ?? ''), enabled: !!pair });
  const importing = useMutation({
    mutationFn: (c: PublicCorpusDto) =>
      importPublicCorpus({ src_lang: pair?.src ?? '', tgt_lang: pair?.tgt ?? '', corpus: c.name, format: c.format, model_id: into || undefined }),
    onSuccess: () => reload(),
  });
  const corpora = pair ? (found.data ?? null) : null;
  const busy = found.isFetching || importing.isPending;
  const failure = importing.error ?? found.error;
  const message: { kind: 'status' | 'alert'; text: string } | null = failure
    ? { kind: 'alert', text: t('failed', { message: serverErrorText(failure, t, i18n.language) }) }
    : importing.isSuccess
      ? { kind: 'status', text: t('started', { corpus: `${importing.variables.name} ${importing.variables.version}`.trim() }) }
      : null;

  const search = (e: FormEvent) => {
    e.preventDefault();
    importing.reset();
    setPair({ src: src.trim(), tgt: tgt.trim() });
  };
  const importOne = (c: PublicCorpusDto) => importing.mutate(c);

  return (
    <section className="card" aria-labelledby="public-data-heading" data-testid="find-public-data">
      <h2 id="public-data-heading" className="card__title">
        {t('title')}
      </h2>
      <p className="muted">{t('intro')}</p>
      <form onSubmit={search}>
        <label htmlFor="public-src">{t('source')}</label>
        <input id="public-src" className="input" value={src} maxLength={20} required onChange={(e) => setSrc(e.target.value)} />
        <label htmlFor="public-tgt">{t('target')}</label>
        <input id="public-tgt" className="input" value={tgt} maxLength={20} required onChange={(e) => setTgt(e.target.value)} />
        <button type="submit" className="btn btn--outline" disabled={busy}>
          {busy && corpora === null ? t('searching') : t('search')}
        </button>
      </form>
      {corpora !== null && corpora.length === 0 && <p>{t('none')}</p>}
      {corpora !== null && corpora.length > 0 && (
        <>
          <label htmlFor="public-into">{t('into')}</label>
          <select id="public-into" className="input" value={into} onChange={(e) => setInto(e.target.value)}>
            <option value="">{t('newAgent')}</option>
            {owned.map((a) => (
              <option key={a.id} value={a.id}>
                {a.src_lang} → {a.tgt_lang} — {a.custom_prompt.slice(0, 60)}
              </option>
            ))}
          </select>
          <table className="table">
            <thead>
              <tr>
                <th>{t('name')}</th>
                <th>{t('pairs')}</th>
                <th>{t('size')}</th>
                <th>{t('license')}</th>
                <th>{t('format')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {corpora.map((c) => (
                <tr key={`${c.name}-${c.format}`}>
                  <td>
                    {c.name} {c.version}
                  </td>
                  <td>{formatNumber(c.pairs, i18n.language)}</td>
                  <td>{(c.size_bytes / BYTES_PER_MB).toLocaleString(i18n.language, { maximumFractionDigits: 1 })} MB</td>
                  <td>{c.license}</td>
                  <td>{c.format}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn--primary"
                      disabled={busy}
                      onClick={() => importOne(c)}
                      aria-label={`${t('import')} ${c.name} ${c.format}`}
                    >
                      {t('import')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      {message && <p role={message.kind}>{message.text}</p>}
    </section>
  );
}
