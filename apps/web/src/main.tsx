import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { initI18n } from './i18n';
import './styles.css';

const i18n = initI18n();
const setLang = (lng: string) => {
  document.documentElement.lang = lng;
};
setLang(i18n.language);
i18n.on('languageChanged', setLang);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
