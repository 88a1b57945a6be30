import type { PublicUser } from '@schemacheck/contracts';

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

export function AccountDetailsCard({ user }: { user: PublicUser }) {
  const rows = [
    { label: 'Username', value: user.username },
    { label: 'Email', value: user.email },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Account details</CardTitle>
        <CardDescription>The name and address you sign in with.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-zinc-100 rounded-lg border border-zinc-200">
          {rows.map((row) => (
            <div key={row.label} className="grid gap-1 px-4 py-3 sm:grid-cols-[8rem_1fr] sm:gap-4">
              <dt className="text-sm font-medium text-zinc-600">{row.label}</dt>
              <dd className="break-all text-sm text-zinc-900">{row.value}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
