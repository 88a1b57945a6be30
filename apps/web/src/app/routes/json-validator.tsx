import { ValidatorPage } from '@/features/validation/components/validator-page';

export function JsonValidatorRoute() {
  return <ValidatorPage fileType="json" />;
}
