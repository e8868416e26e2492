/** One phase of Self-Contrastive Translation as an accessible flow of steps. */
export function PhaseDiagram({ id, title, steps, variant }: { id: string; title: string; steps: string[]; variant: 'generate' | 'refine' }) {
  return (
    <figure className={`phase phase--${variant}`} aria-labelledby={`${id}-title`}>
      <figcaption id={`${id}-title`} className="phase__title">
        {title}
      </figcaption>
      <ol className="phase__flow">
        {steps.map((s, i) => (
          <li key={i} className={`phase__step${i === steps.length - 1 ? ' phase__step--result' : ''}`}>
            <span className="phase__num" aria-hidden="true">
              {i + 1}
            </span>
            {s}
          </li>
        ))}
      </ol>
    </figure>
  );
}
