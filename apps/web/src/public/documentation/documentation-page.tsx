import { useTranslation } from 'react-i18next';
import { CopyButton } from '../copy-button';
import { cliExample, clientExample } from './examples';
import {
  ANSWER_FIELDS,
  curlSample,
  DOCUMENTED_ENDPOINTS,
  ERROR_SAMPLE,
  javascriptSample,
  JSON_SAMPLE,
  REQUIRED_HEADERS,
  STREAM_SAMPLE,
  TRANSLATE_PARAMETERS,
} from './api-reference';
import { useDocumentTitle } from '../../layout/use-document-title';
import { formatResponseTime } from '../../lib/response-time';
import { formatDate, formatNumber } from '../../dashboard/lib/format';
import { BENCH_SOURCES, MEASURED } from './measured';

function CodeSample({ title, code, lang }: { title: string; code: string; lang: string }) {
  return (
    <figure className="code-sample">
      <figcaption className="code-sample__bar">
        <span>{title}</span>
        <CopyButton text={code} />
      </figcaption>
      <pre className="code-block" data-lang={lang} tabIndex={0}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}

const SECTIONS = ['research', 'architecture', 'models', 'infrastructure', 'endpoints', 'parameters', 'headers', 'examples', 'responses', 'benchmarks'] as const;

export function DocumentationPage() {
  const { t, i18n } = useTranslation('public');
  useDocumentTitle(t('docs.title'));
  const origin = window.location.origin;
  const list = (key: string) => t(key, { returnObjects: true }) as string[];

  return (
    <div className="container page docs-layout">
      <nav className="docs-toc" aria-label={t('docs.toc')}>
        <ul>
          {SECTIONS.map((id) => (
            <li key={id}>
              <a href={`#doc-${id}`}>{t(`docs.${id}.title`)}</a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="docs-content prose">
        <header className="page-header page-header--left">
          <p className="eyebrow">{t('docs.eyebrow')}</p>
          <h1>{t('docs.title')}</h1>
          <p className="lead">{t('docs.subtitle')}</p>
        </header>

        <section id="doc-research" aria-labelledby="doc-research-h">
          <h2 id="doc-research-h">{t('docs.research.title')}</h2>
          <p>{t('docs.research.text')}</p>
          <div className="stats-row stats-row--compact">
            <div className="stat">
              <span className="stat__value">101</span>
              <span className="stat__label">{t('docs.research.languages')}</span>
            </div>
            <div className="stat">
              <span className="stat__value">+26%</span>
              <span className="stat__label">{t('docs.research.similarity')}</span>
            </div>
          </div>
        </section>

        <section id="doc-architecture" aria-labelledby="doc-architecture-h">
          <h2 id="doc-architecture-h">{t('docs.architecture.title')}</h2>
          <p>{t('docs.architecture.text')}</p>
          <ul>
            {list('docs.architecture.items').map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </section>

        <section id="doc-models" aria-labelledby="doc-models-h">
          <h2 id="doc-models-h">{t('docs.models.title')}</h2>
          <p>{t('docs.models.text')}</p>
        </section>

        <section id="doc-infrastructure" aria-labelledby="doc-infrastructure-h">
          <h2 id="doc-infrastructure-h">{t('docs.infrastructure.title')}</h2>
          <p>{t('docs.infrastructure.text')}</p>
        </section>

        <section id="doc-endpoints" aria-labelledby="doc-endpoints-h">
          <h2 id="doc-endpoints-h">{t('docs.endpoints.title')}</h2>
          <p>{t('docs.endpoints.text')}</p>
          <ul className="endpoint-list">
            {DOCUMENTED_ENDPOINTS.map((e) => (
              <li key={e.path} className="endpoint" data-testid="documented-endpoint" data-method={e.method} data-path={e.path}>
                <span className={`method method--${e.method.toLowerCase()}`}>{e.method}</span>
                <code>{e.path}</code>
                <span className="muted">{t(`docs.endpoints.${e.key}`)}</span>
              </li>
            ))}
          </ul>
          <p className="muted">{t('docs.endpoints.openapi')}</p>
        </section>

        <section id="doc-parameters" aria-labelledby="doc-parameters-h">
          <h2 id="doc-parameters-h">{t('docs.parameters.title')}</h2>
          <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="doc-parameters-h">
            <table className="table table--stack">
              <thead>
                <tr>
                  <th scope="col">{t('docs.parameters.name')}</th>
                  <th scope="col">{t('docs.parameters.type')}</th>
                  <th scope="col">{t('docs.parameters.required')}</th>
                  <th scope="col">{t('docs.parameters.description')}</th>
                </tr>
              </thead>
              <tbody>
                {TRANSLATE_PARAMETERS.map((p) => (
                  <tr key={p.name}>
                    <td data-label={t('docs.parameters.name')}>
                      <code>{p.name}</code>
                    </td>
                    <td data-label={t('docs.parameters.type')}>{p.type}</td>
                    <td data-label={t('docs.parameters.required')}>{p.required ? t('docs.parameters.yes') : t('docs.parameters.no')}</td>
                    <td data-label={t('docs.parameters.description')}>{t(`docs.parameters.${p.key}`)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>

        <section id="doc-headers" aria-labelledby="doc-headers-h">
          <h2 id="doc-headers-h">{t('docs.headers.title')}</h2>
          <ul>
            {REQUIRED_HEADERS.map((h) => (
              <li key={h.name}>
                <code>
                  {h.name}: {h.value}
                </code>{' '}
                — {t(`docs.headers.${h.key}`)}
              </li>
            ))}
          </ul>
        </section>

        <section id="doc-examples" aria-labelledby="doc-examples-h">
          <h2 id="doc-examples-h">{t('docs.examples.title')}</h2>
          <CodeSample title="cURL" lang="bash" code={curlSample(origin)} />
          <CodeSample title="JavaScript" lang="js" code={javascriptSample(origin)} />
          <CodeSample title="@gaia/client (JavaScript / TypeScript)" lang="js" code={clientExample(origin)} />
          <CodeSample title="CLI (gaia-translate)" lang="bash" code={cliExample(origin)} />
        </section>

        <section id="doc-responses" aria-labelledby="doc-responses-h">
          <h2 id="doc-responses-h">{t('docs.responses.title')}</h2>
          <p>{t('docs.responses.stream')}</p>
          <CodeSample title={t('docs.responses.streamTitle')} lang="text" code={STREAM_SAMPLE} />
          <p>{t('docs.responses.json')}</p>
          <CodeSample title={t('docs.responses.jsonTitle')} lang="json" code={JSON_SAMPLE} />
          <dl className="info-list" data-testid="docs-answer-fields">
            {ANSWER_FIELDS.map((f) => (
              <div key={f.name}>
                <dt>
                  <code>{f.name}</code>
                </dt>
                <dd>{t(`docs.responses.${f.key}`)}</dd>
              </div>
            ))}
          </dl>
          <p>{t('docs.responses.error')}</p>
          <CodeSample title={t('docs.responses.errorTitle')} lang="json" code={ERROR_SAMPLE} />
        </section>

        <section id="doc-benchmarks" aria-labelledby="doc-benchmarks-h">
          <h2 id="doc-benchmarks-h">{t('docs.benchmarks.title')}</h2>
          <dl className="spec-grid">
            <div className="spec" data-testid="measured-response-time">
              <dt>{t('docs.benchmarks.responseTime.label')}</dt>
              <dd>
                {t('docs.benchmarks.responseTime.value', {
                  p50: formatResponseTime(MEASURED.responseTime.p50Seconds, i18n.language),
                  p99: formatResponseTime(MEASURED.responseTime.p99Seconds, i18n.language),
                })}
              </dd>
            </div>
            <div className="spec" data-testid="measured-upload-to-ready">
              <dt>{t('docs.benchmarks.uploadToReady.label', { pairs: formatNumber(MEASURED.uploadToReady.pairs, i18n.language) })}</dt>
              <dd>{formatResponseTime(MEASURED.uploadToReady.seconds, i18n.language)}</dd>
              <dd className="muted small">
                {t('docs.benchmarks.uploadToReadyNote', { seconds: formatResponseTime(MEASURED.uploadToReady.qualityReportAfterSeconds, i18n.language) })}
              </dd>
            </div>
            <div className="spec" data-testid="measured-many-agents">
              <dt>
                {t('docs.benchmarks.manyAgents.label', {
                  agents: formatNumber(MEASURED.scale.agents, i18n.language),
                  pairs: formatNumber(MEASURED.scale.pairs, i18n.language),
                })}
              </dt>
              <dd>{t('docs.benchmarks.manyAgents.value', { mb: formatNumber(MEASURED.scale.maxRssMB, i18n.language) })}</dd>
            </div>
            <div className="spec" data-testid="measured-storage">
              <dt>{t('docs.benchmarks.storage.label')}</dt>
              <dd>{t('docs.benchmarks.storage.value', { bytes: formatNumber(MEASURED.scale.bytesPerPair, i18n.language) })}</dd>
            </div>
            <div className="spec" data-testid="measured-cold">
              <dt>{t('docs.benchmarks.cold.label')}</dt>
              <dd>{formatResponseTime(MEASURED.scale.coldSeconds, i18n.language)}</dd>
            </div>
            <div className="spec" data-testid="measured-throughput">
              <dt>{t('docs.benchmarks.throughput.label', { connections: MEASURED.scale.connections })}</dt>
              <dd>{t('docs.benchmarks.throughput.value', { rps: formatNumber(MEASURED.scale.requestsPerSecond, i18n.language) })}</dd>
            </div>
            {(['bertscore', 'maxWords', 'maxChars', 'rateLimit'] as const).map((k) => (
              <div key={k} className="spec">
                <dt>{t(`docs.benchmarks.${k}.label`)}</dt>
                <dd>{t(`docs.benchmarks.${k}.value`)}</dd>
              </div>
            ))}
          </dl>
          <p className="muted small" data-testid="bench-sources">
            {t('docs.benchmarks.source', { samples: MEASURED.responseTime.samples, date: formatDate(MEASURED.responseTime.date, i18n.language) })}{' '}
            {BENCH_SOURCES.map((file, i) => (
              <span key={file}>
                {i > 0 && ', '}
                <code>{file}</code>
              </span>
            ))}
          </p>
        </section>
      </div>
    </div>
  );
}
