import { ValidatorPage } from '@/features/validation/components/validator-page';

export function CsvValidatorRoute() {
  return <ValidatorPage fileType="csv" />;
}
