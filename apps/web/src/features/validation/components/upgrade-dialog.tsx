import { PLANS, nextTier, type Plan, type SubscriptionTier } from '@schemacheck/contracts';
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

import { formatBytes, formatCount, formatLongDate, formatMaxFileSize } from '@/lib/format';
import type { UpgradeReason } from '../lib/upgrade-reason';

interface DialogText {
  title: string;
  /** What happened, with the current plan's figure. */
  body: string;
  /** What the next plan offers instead: the figure that fixes it. */
  offer: string;
}

const rows = (n: number | null) => (n === null ? 'unlimited rows' : `${formatCount(n)} rows`);
const size = (bytes: number | null) =>
  bytes === null ? 'files of any size' : `files up to ${formatMaxFileSize(bytes)}`;
const monthly = (n: number | null) =>
  n === null ? 'unlimited validations' : `${formatCount(n)} validations a month`;

/** Each dialog says what happened, the plan's figure, and the next plan that fixes it. */
function texts(reason: UpgradeReason, plan: Plan, next: Plan): DialogText {
  switch (reason.kind) {
    case 'file_too_large': {
      const fileSize = reason.fileSize !== undefined ? ` (${formatBytes(reason.fileSize)})` : '';
      const name = reason.fileName ? `${reason.fileName}${fileSize}` : 'This file';
      return {
        title: 'Tier Limit Exceeded',
        body: `${name} is larger than the ${formatMaxFileSize(plan.limits.maxFileBytes)} file size limit of the ${plan.label} plan.`,
        offer: `${next.label} checks ${size(next.limits.maxFileBytes)}.`,
      };
    }
    case 'row_limit':
      return {
        title: 'Tier Limit Exceeded',
        body: `${reason.fileName ?? 'This file'} has more than the ${rows(plan.limits.maxRows)} the ${plan.label} plan checks in one file. Nothing was counted against your monthly usage.`,
        offer: `${next.label} checks files with ${rows(next.limits.maxRows)}.`,
      };
    case 'monthly_limit':
      return {
        title: 'Monthly limit reached',
        body: `You have used all ${monthly(plan.limits.monthlyValidations)} of the ${plan.label} plan.${reason.resetDate ? ` Your usage resets on ${formatLongDate(reason.resetDate)}.` : ' Your usage resets on the 1st of next month.'}`,
        offer: `${next.label} includes ${monthly(next.limits.monthlyValidations)}.`,
      };
    case 'save_locked':
      return {
        title: 'Saving schemas is a paid feature',
        body: `The ${plan.label} plan cannot save schemas; you can still export this one as a file.`,
        offer: `${next.label} saves your schemas so you can reuse them for every file.`,
      };
    case 'load_locked':
      return {
        title: 'Loading saved schemas is a paid feature',
        body: `The ${plan.label} plan has no saved schemas; you can import a schema file instead.`,
        offer: `${next.label} keeps your saved schemas ready to load.`,
      };
    case 'export_locked':
      return {
        title: 'Error reports are a paid feature',
        body: `The ${plan.label} plan shows the errors here, on the page.`,
        offer: `${next.label} downloads the complete error report as CSV, every error by row and column.`,
      };
  }
}

/** /profile?upgrade=<tier>#plans: the profile page scrolls to and highlights that plan. */
export function plansLink(tier: SubscriptionTier): string {
  return `${paths.profile}?upgrade=${tier}#plans`;
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
  const plan = PLANS[tier];
  // The plan that fixes it: Pro from Free, Business from Pro, Enterprise otherwise.
  const next = PLANS[nextTier(tier)];
  const content = reason ? texts(reason, plan, next) : null;
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
            <p
              className="rounded-lg bg-indigo-50 px-4 py-3 text-sm text-indigo-950 ring-1 ring-indigo-100"
              data-testid="upgrade-offer"
            >
              <span className="font-semibold">Suggested plan: {next.label}.</span> {content.offer}
            </p>
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="outline">Not now</Button>
              </DialogClose>
              <Link to={plansLink(next.tier)} className={buttonVariants()} onClick={onClose}>
                View Plans
              </Link>
            </DialogFooter>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
