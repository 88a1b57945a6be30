import type { MailMessage } from './mailer.ts';

// The account mails. Plain text first; the HTML part only repeats it with a link.

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function passwordResetMail(to: string, username: string, link: string): MailMessage {
  const text = [
    `Hello ${username},`,
    '',
    'Someone (hopefully you) asked to reset the password of your SchemaCheck account.',
    'Open this link within one hour to choose a new password:',
    '',
    link,
    '',
    'The link works once. If you did not ask for it, ignore this mail: your password stays as it is.',
    '',
    '— SchemaCheck',
  ].join('\n');
  const html =
    `<p>Hello ${escapeHtml(username)},</p>` +
    '<p>Someone (hopefully you) asked to reset the password of your SchemaCheck account. ' +
    'Open this link within one hour to choose a new password:</p>' +
    `<p><a href="${escapeHtml(link)}">Reset your password</a></p>` +
    '<p>The link works once. If you did not ask for it, ignore this mail: your password stays as it is.</p>' +
    '<p>— SchemaCheck</p>';
  return { to, subject: 'Reset your SchemaCheck password', text, html };
}

export function passwordChangedMail(to: string, username: string, appUrl: string): MailMessage {
  const text = [
    `Hello ${username},`,
    '',
    'The password of your SchemaCheck account was just changed, and every signed-in session was',
    'signed out.',
    '',
    `If this was not you, reset your password at once: ${appUrl}/forgot-password`,
    '',
    '— SchemaCheck',
  ].join('\n');
  return { to, subject: 'Your SchemaCheck password was changed', text };
}
