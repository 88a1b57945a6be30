import { PLANS, nextTier, type SubscriptionTier } from '@schemacheck/contracts';
import { Sparkles } from 'lucide-react';
import { Link } from 'react-router-dom';

import { Button, buttonVariants } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { paths } from '@/config/paths';

import { formatBytes, formatMaxFileSize, formatMaxRows } from '../lib/format';

export type UpgradeReason =
  | { kind: 'file_too_large'; fileName?: string; fileSize?: number; message?: string }
  | { kind: 'row_limit'; message?: string }
  | { kind: 'monthly_limit'; message?: string }
  | { kind: 'save_locked' }
  | { kind: 'load_locked' }
  | { kind: 'export_locked' };

function texts(reason: UpgradeReason, tier: SubscriptionTier): { title: string; body: string } {
  const plan = PLANS[tier];
  const next = PLANS[nextTier(tier)];
  switch (reason.kind) {
    case 'file_too_large': {
      const size = reason.fileSize !== undefined ? ` (${formatBytes(reason.fileSize)})` : '';
      const name = reason.fileName ? `${reason.fileName}${size}` : 'This file';
      return {
        title: 'Tier Limit Exceeded',
        body: `${name} is larger than the ${formatMaxFileSize(plan.limits.maxFileBytes)} file size limit of the ${plan.label} plan. Upgrade to ${next.label} for files up to ${formatMaxFileSize(next.limits.maxFileBytes).replace('Unlimited', 'any size')}.`,
      };
    }
    case 'row_limit':
      return {
        title: 'Tier Limit Exceeded',
        body:
          reason.message ??
          `This file has more than the ${formatMaxRows(plan.limits.maxRows)} the ${plan.label} plan allows.`,
      };
    case 'monthly_limit':
      return {
        title: 'Monthly limit reached',
        body:
          reason.message ??
          `You have used every validation of the ${plan.label} plan this month. Upgrade for more, or wait until your usage resets.`,
      };
    case 'save_locked':
      return {
        title: 'Saving schemas is a paid feature',
        body: `The ${plan.label} plan cannot save schemas. Upgrade to ${PLANS.pro.label} to save schemas and reuse them for every file.`,
      };
    case 'load_locked':
      return {
        title: 'Loading saved schemas is a paid feature',
        body: `Saved, reusable schemas come with the ${PLANS.pro.label} plan and above.`,
      };
    case 'export_locked':
      return {
        title: 'Error reports are a paid feature',
        body: `The ${plan.label} plan shows the first errors here. Upgrade to ${PLANS.pro.label} to download the complete error report as CSV.`,
      };
  }
}

export function UpgradeDialog({
  reason,
  tier,
  onClose,
}: {
  reason: UpgradeReason | null;
  tier: SubscriptionTier;
  onClose: () => void;
}) {
  const content = reason ? texts(reason, tier) : null;
  const suggested = reason?.kind === 'file_too_large' ? PLANS[nextTier(tier)] : null;
  return (
    <Dialog open={reason !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent data-testid="upgrade-dialog">
        {content ? (
          <>
            <DialogHeader>
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-indigo-50 text-indigo-600"
              >
                <Sparkles className="size-5" />
              </span>
              <DialogTitle>{content.title}</DialogTitle>
              <DialogDescription>{content.body}</DialogDescription>
            </DialogHeader>
            {suggested ? (
              <p className="rounded-lg bg-zinc-50 px-4 py-3 text-sm text-zinc-700">
                Suggested plan:{' '}
                <span className="font-semibold text-zinc-900">{suggested.label}</span>
              </p>
            ) : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Not now</Button>
              </DialogClose>
              <Link to={paths.profile} className={buttonVariants()} onClick={onClose}>
                View Plans
              </Link>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
