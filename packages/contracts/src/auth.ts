import { z } from 'zod';

import { SUBSCRIPTION_TIERS } from './tiers.ts';

// One schema per form and payload: the web forms (zodResolver) and the server routes (parse)
// use these, so every message a user sees about their input is written once, here.

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 50;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 99;

/** The live checklist on the registration form, in display order. */
export const passwordChecks = [
  { label: 'At least 8 characters', test: (p: string) => [...p].length >= PASSWORD_MIN },
  { label: 'One lowercase letter', test: (p: string) => /\p{Ll}/u.test(p) },
  { label: 'One uppercase letter', test: (p: string) => /\p{Lu}/u.test(p) },
  { label: 'One number', test: (p: string) => /\p{Nd}/u.test(p) },
  { label: 'One special character', test: (p: string) => /[^\p{L}\p{Nd}]/u.test(p) },
] as const;

export const passwordSchema = z
  .string({ error: 'Password is required' })
  .refine((p) => [...p].length >= PASSWORD_MIN, 'Password must be at least 8 characters long')
  .refine((p) => [...p].length <= PASSWORD_MAX, 'Password must be less than 100 characters')
  .refine((p) => /\p{Ll}/u.test(p), 'Password must contain at least one lowercase letter')
  .refine((p) => /\p{Lu}/u.test(p), 'Password must contain at least one uppercase letter')
  .refine((p) => /\p{Nd}/u.test(p), 'Password must contain at least one number')
  .refine((p) => /[^\p{L}\p{Nd}]/u.test(p), 'Password must contain at least one special character');

export const emailSchema = z
  .string({ error: 'Please enter a valid email address' })
  .trim()
  .max(254, 'Please enter a valid email address')
  .email('Please enter a valid email address');

export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(USERNAME_MIN, 'Username must be at least 3 characters')
  .max(USERNAME_MAX, 'Username must be less than 50 characters')
  // Sign-in takes a username or an email; an '@' always means an email, so no username has one.
  .refine((v) => !v.includes('@'), "Username can't contain @");

export const loginSchema = z.object({
  usernameOrEmail: z
    .string({ error: 'Username or email is required' })
    .trim()
    .min(1, 'Username or email is required')
    .max(254, 'Username or email is too long'),
  password: z
    .string({ error: 'Password is required' })
    .min(1, 'Password is required')
    .max(1024, 'Password must be less than 100 characters'),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** What the server accepts: confirmPassword is checked by the form and never sent. */
export const registerSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema,
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const registerFormSchema = registerSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type RegisterForm = z.infer<typeof registerFormSchema>;

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.object({
  token: z
    .string({ error: 'Reset token is required' })
    .min(1, 'Reset token is required')
    .max(256, 'Invalid reset token'),
  password: passwordSchema,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const resetPasswordFormSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

export const deleteAccountSchema = z.object({
  password: z
    .string({ error: 'Please enter your password to confirm account deletion.' })
    .min(1, 'Please enter your password to confirm account deletion.')
    .max(1024, 'Password must be less than 100 characters'),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

export const publicUserSchema = z.object({
  username: z.string(),
  email: z.string(),
  subscriptionTier: z.enum(SUBSCRIPTION_TIERS),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

export const meResponseSchema = z.object({ user: publicUserSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;

export const csrfResponseSchema = z.object({ csrfToken: z.string() });

/** Every failure the API returns has this shape. */
export const errorResponseSchema = z.object({ error: z.string(), code: z.string().optional() });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** The text the forgot-password call always answers with (no account enumeration). */
export const FORGOT_PASSWORD_MESSAGE =
  'If an account with that email exists, a password reset link has been sent.';
