import { paths } from '@/config/paths';
import { AuthCardLayout } from '@/features/auth/components/auth-card-layout';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { usePageMeta } from '@/hooks/use-page-meta';

export function ForgotPasswordRoute() {
  usePageMeta({
    title: 'Reset Your Password',
    description:
      'Forgot your SchemaCheck password? Enter your email and we will send you a reset link.',
    keywords: ['reset password', 'forgot password', 'SchemaCheck account'],
    path: paths.forgotPassword,
  });
  return (
    <AuthCardLayout>
      <ForgotPasswordForm />
    </AuthCardLayout>
  );
}
