import { resetPasswordSchema } from '@schemacheck/contracts';
import { useSearchParams } from 'react-router-dom';

import { paths } from '@/config/paths';
import { AuthCardLayout } from '@/features/auth/components/auth-card-layout';
import { InvalidResetLink } from '@/features/auth/components/invalid-reset-link';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { usePageMeta } from '@/hooks/use-page-meta';

export function ResetPasswordRoute() {
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const tokenOk = resetPasswordSchema.shape.token.safeParse(token).success;

  usePageMeta({
    title: 'Set a New Password',
    description: 'Choose a new password for your SchemaCheck account.',
    keywords: ['new password', 'reset password', 'SchemaCheck account'],
    path: paths.resetPassword,
    noindex: true,
  });

  return (
    <AuthCardLayout>
      {tokenOk ? <ResetPasswordForm token={token} /> : <InvalidResetLink />}
    </AuthCardLayout>
  );
}
