import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface PickedFile {
  key: string;
  file: File;
  /** Translated problem text, or null when the file will be uploaded. */
  problem: string | null;
}

interface Props {
  label: string;
  hint: string;
  accept: string;
  files: PickedFile[];
  disabled?: boolean;
  onAdd(files: File[]): void;
  onRemove(key: string): void;
}

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** File input with drag-and-drop and a per-file list (valid files and their problems). */
export function FilePicker({ label, hint, accept, files, disabled, onAdd, onRemove }: Props) {
  const { t } = useTranslation('dashboard');
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) onAdd(Array.from(e.dataTransfer.files));
  };
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div
        className={`dropzone${over ? ' is-over' : ''}${disabled ? ' is-disabled' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <input
          ref={input}
          id={id}
          type="file"
          multiple
          accept={accept}
          disabled={disabled}
          aria-describedby={`${id}-hint`}
          className="dropzone__input"
          onChange={(e) => {
            onAdd(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        <span className="dropzone__text">{t('files.drop')}</span>
        <span id={`${id}-hint`} className="muted dropzone__hint">
          {hint}
        </span>
      </div>
      {files.length > 0 && (
        <ul className="file-list" aria-label={t('files.selected')}>
          {files.map((f) => (
            <li key={f.key} className={`file-list__item${f.problem ? ' has-problem' : ''}`} data-testid="picked-file">
              <span className="file-list__name">{f.file.name}</span>
              <span className="file-list__size muted">{size(f.file.size)}</span>
              {f.problem && (
                <span className="file-list__problem" role="alert">
                  {f.problem}
                </span>
              )}
              <button
                type="button"
                className="btn btn--ghost btn--sm"
                onClick={() => onRemove(f.key)}
                disabled={disabled}
                aria-label={t('files.remove', { name: f.file.name })}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
