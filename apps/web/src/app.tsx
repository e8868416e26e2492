import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Link, RouterProvider, type RouteObject } from 'react-router-dom';
import { QueryProvider } from './api/query-client';
import { AuthProvider } from './auth/auth-context';
import { SiteLayout } from './layout/site-layout';
import { DatasetsPage } from './public/datasets/datasets-page';
import { DocumentationPage } from './public/documentation/documentation-page';
import { LandingPage } from './public/landing/landing-page';
import { ModelDetailPage } from './public/models/model-detail-page';
import { ModelsPage } from './public/models/models-page';
import { PostPage } from './public/post/post-page';
import { PricingPage } from './public/pricing/pricing-page';
import { PrivacyPage } from './public/privacy/privacy-page';
import { AcceptInvitationPage } from './auth/accept-invitation-page';
import { VerifyEmailPage } from './auth/verify-email-page';

/** The signed-in area is its own chunk; `src/dashboard/index.tsx` default-exports its root element. */
const Dashboard = lazy(() => import('./dashboard'));

function Loading() {
  const { t } = useTranslation('common');
  return (
    <p className="container page loading-text" role="status">
      {t('loading')}
    </p>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation('common');
  return (
    <div className="container page page-narrow not-found">
      <h1>{t('notFound.title')}</h1>
      <p className="lead">{t('notFound.text')}</p>
      <Link to="/" className="btn btn--primary">
        {t('notFound.home')}
      </Link>
    </div>
  );
}

export const routes: RouteObject[] = [
  {
    element: <SiteLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      { path: 'pricing', element: <PricingPage /> },
      { path: 'privacy', element: <PrivacyPage /> },
      { path: 'post/:id', element: <PostPage /> },
      { path: 'datasets', element: <DatasetsPage /> },
      { path: 'models', element: <ModelsPage /> },
      { path: 'models/:modelId', element: <ModelDetailPage /> },
      { path: 'documentation', element: <DocumentationPage /> },
      { path: 'verify-email', element: <VerifyEmailPage /> },
      { path: 'invitations/accept', element: <AcceptInvitationPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    element: <SiteLayout footer={false} />,
    children: [
      {
        path: 'dashboard/*',
        element: (
          <Suspense fallback={<Loading />}>
            <Dashboard />
          </Suspense>
        ),
      },
    ],
  },
];

export function App({ router = createBrowserRouter(routes) }: { router?: ReturnType<typeof createBrowserRouter> }) {
  return (
    <QueryProvider>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryProvider>
  );
}
